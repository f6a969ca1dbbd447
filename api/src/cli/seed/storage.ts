/**
 * Object storage for the seed. With S3_* set, that S3 is used. Otherwise, outside production, the
 * embedded S3 of `npm start`: the running app's server when its port is taken, else one started
 * here on the same port and data directory for the duration of the seed.
 */
import net from 'node:net';
import path from 'node:path';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { loadCommonConfig, type CommonConfig } from '../../core/config.js';
import { createS3Client, ensureBucket } from '../../core/storage/s3.js';

export interface SeedStorage {
  config: CommonConfig;
  s3: S3Client;
  bucket: string;
  /** Where the objects go, for the summary. */
  description: string;
  /** Stops the embedded server when this seed started it. */
  stop(): Promise<void>;
}

const EMBEDDED_S3_DEFAULT_PORT = 4569;

/** Throws `ConfigError` when S3 is not configured and cannot be embedded (production). */
export async function openStorage(env: NodeJS.ProcessEnv = process.env): Promise<SeedStorage> {
  const merged: NodeJS.ProcessEnv = { ...env };
  let stopEmbedded: (() => Promise<void>) | undefined;
  let description: string | undefined;

  if (!merged.S3_ENDPOINT && merged.NODE_ENV !== 'production') {
    // A devDependency: only loaded where the embedded services are allowed.
    const dev = await import('@schlosstreffen/infra/dev-services');
    const port = Number(merged.EMBEDDED_S3_PORT || EMBEDDED_S3_DEFAULT_PORT);
    const bucket = merged.S3_BUCKET || 'schlosstreffen';
    if (await isPortFree(port)) {
      const dataDir = path.resolve(merged.DATA_DIR || '.data', 's3');
      const embedded = await dev.startEmbeddedS3({ dataDir, port, bucket });
      stopEmbedded = embedded.stop;
      Object.assign(merged, dev.s3Env(embedded));
      description = `${embedded.endpoint} (embedded, started for this command; data in ${path.relative(process.cwd(), dataDir) || '.'})`;
    } else {
      // `npm start` is running and serves its embedded S3 on this port.
      const endpoint = `http://127.0.0.1:${port}`;
      Object.assign(
        merged,
        dev.s3Env({
          endpoint,
          region: 'us-east-1',
          bucket,
          accessKeyId: 'S3RVER',
          secretAccessKey: 'S3RVER',
          forcePathStyle: true,
        }),
      );
      description = `${endpoint} (embedded S3 of the running app)`;
    }
  }

  try {
    const config = loadCommonConfig(merged);
    const s3 = createS3Client(config.s3);
    await ensureBucket(s3, config.s3.bucket);
    return {
      config,
      s3,
      bucket: config.s3.bucket,
      description: description ?? config.s3.endpoint,
      stop: async () => {
        s3.destroy();
        await stopEmbedded?.();
      },
    };
  } catch (error) {
    await stopEmbedded?.();
    throw error;
  }
}

export async function putJpeg(storage: SeedStorage, key: string, body: Buffer): Promise<void> {
  await storage.s3.send(
    new PutObjectCommand({ Bucket: storage.bucket, Key: key, Body: body, ContentType: 'image/jpeg' }),
  );
}

function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}
