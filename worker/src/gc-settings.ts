import v8 from 'node:v8';

/**
 * The worker's garbage collection. Photos pass through the process as memory outside V8's heap
 * (downloaded bytes, decoded pixels, encoded copies: 20–60 MB per camera photo). By default V8
 * starts a full collection of the whole heap (about 60 MB in the worker) after every 64 MB of such
 * memory, about once per photo; counted in the heap's own growing limit instead, it collects about
 * a third as often. Four camera photos at once: 15 % less CPU per photo, 60–110 MB more peak memory
 * (docs/development.md#performance). Applied at start; the bench's reference processes apply it too.
 */
export function applyGcSettings(): void {
  v8.setFlagsFromString('--external-memory-accounted-in-global-limit');
}
