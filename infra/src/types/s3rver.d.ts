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

  /** The Koa context as s3rver's middleware sees it. */
  export interface S3rverContext {
    method: string;
    path: string;
    mountPath?: string;
    query: Record<string, string | string[] | undefined>;
    headers: Record<string, string | string[] | undefined>;
    /** Set by s3rver's router (`bucket`, `key`); its authentication middleware reads them. */
    params?: Record<string, string | undefined>;
    state: { vhost?: boolean };
    status: number;
    /** A plain object is serialised to XML by s3rver. */
    body: unknown;
    is(...types: string[]): string | false | null;
  }

  export type S3rverMiddleware = (ctx: S3rverContext, next: () => Promise<unknown>) => unknown;

  /** s3rver's on-disk store (lib/stores/filesystem.js). */
  export interface FilesystemStore {
    rootDirectory: string;
    /** `<root>/<bucket>/<key dirs>/<name>._S3rver_<resource>`; uploads live in `getResourcePath(bucket, undefined, 'uploads')/<uploadId>`. */
    getResourcePath(bucket: string, key: string | undefined, resource: string): string;
    getBucket(bucket: string): Promise<{ name: string } | null>;
  }

  export default class S3rver {
    constructor(options?: S3rverOptions);
    httpServer?: Server;
    store: FilesystemStore;
    /** Koa's middleware stack (S3rver extends Koa); the router is last. */
    middleware: S3rverMiddleware[];
    /** Creates the configured buckets and starts listening. */
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}

/** The error s3rver renders as an S3 XML error with the status for its code. */
declare module '@20minutes/s3rver/lib/models/error.js' {
  export default class S3Error extends Error {
    constructor(code: string, message?: string, detail?: Record<string, string | number>);
    code: string;
    status: number;
  }
}

/** s3rver's signature check (v2/v4, header or query); it reads `ctx.params.bucket` and `ctx.params.key`. */
declare module '@20minutes/s3rver/lib/middleware/authentication.js' {
  import type { S3rverMiddleware } from '@20minutes/s3rver';

  export default function authentication(): S3rverMiddleware;
}

/** s3rver's CORS handling for a bucket's CORS configuration; it reads `ctx.params.bucket`. */
declare module '@20minutes/s3rver/lib/middleware/cors.js' {
  import type { S3rverMiddleware } from '@20minutes/s3rver';

  export default function cors(): S3rverMiddleware;
}
