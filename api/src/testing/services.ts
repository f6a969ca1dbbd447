import type { S3Settings } from '@schlosstreffen/infra/dev-services';

export interface ProvidedServices {
  databaseUrl: string;
  templateDb: string;
  redisUrl: string;
  s3: S3Settings;
  smtpUrl: string;
  mailWebUrl: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    services: ProvidedServices;
  }
}
