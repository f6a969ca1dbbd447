/** Minimal types for the parts of s3rver that infra uses (the package ships none). */
declare module '@20minutes/s3rver' {
  import type { AddressInfo } from 'node:net';
  import type { Server } from 'node:http';

  export interface S3rverBucketConfig {
    name: string;
    /** Bucket configuration documents (CORS or website) as XML. */
    configs?: Array<string | Buffer>;
  }

  export interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory?: string;
    resetOnClose?: boolean;
    allowMismatchedSignatures?: boolean;
    vhostBuckets?: boolean;
    configureBuckets?: S3rverBucketConfig[];
  }

  export interface S3rverContext {
    path: string;
    mountPath?: string;
    state: { vhost?: boolean };
  }

  export default class S3rver {
    constructor(options?: S3rverOptions);
    httpServer?: Server;
    /** Koa's middleware stack (S3rver extends Koa); the router is last. */
    middleware: Array<(ctx: S3rverContext, next: () => Promise<unknown>) => unknown>;
    /** Creates the configured buckets and starts listening. */
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
