import { Worker } from 'node:worker_threads';
import type { CardFace } from './card.js';
import type { RenderResult } from './render.js';

/**
 * The print PDF rendered on a worker thread of its own: drawing and text shaping never block the
 * job's event loop (lock renewal, S3, the database), photos are fetched on the main thread while
 * the thread draws, and the thread's heap is small and collected often, so memory stays flat.
 */

export interface ThreadInput {
  /** The file the PDF is written to. */
  file: string;
  title: string;
  version: number;
  eventName: string;
  cards: { face: CardFace; photo: boolean }[];
  /** Photos asked for ahead of the card being drawn. */
  prefetch: number;
}

export type ToThread =
  | { type: 'photo'; index: number; data?: Uint8Array }
  | { type: 'photo-error'; index: number; message: string };

export type FromThread =
  | { type: 'load'; index: number }
  | { type: 'progress'; done: number; total: number }
  | { type: 'done'; result: RenderResult }
  | { type: 'error'; message: string };

export interface ThreadCallbacks {
  /** The photo of card `index` (one with `photo: true`) as JPEG, undefined for a placeholder. */
  loadPhoto: (index: number) => Promise<Buffer | undefined>;
  onProgress: (done: number, total: number) => Promise<void>;
}

/**
 * The thread's heap: what it holds at once is one sheet and a few photos. A small old generation
 * makes V8 collect it early instead of letting garbage grow the process.
 */
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 8 } as const;

export function renderOnThread(input: ThreadInput, callbacks: ThreadCallbacks): Promise<RenderResult> {
  // From source (tests), the thread compiles TypeScript as the main process does; it never takes
  // over the process's own options (a preload meant for the process would run in the thread too).
  const source = import.meta.url.endsWith('.ts');
  const worker = new Worker(new URL(`./render-thread.${source ? 'ts' : 'js'}`, import.meta.url), {
    workerData: input,
    resourceLimits: RESOURCE_LIMITS,
    execArgv: source ? ['--conditions=source', '--import', 'tsx'] : [],
  });
  const post = (message: ToThread) => worker.postMessage(message);
  // A photo's bytes move to the thread rather than being copied; a Buffer sharing its memory, or
  // one a native module made (sharp's), cannot move and is copied.
  const sendPhoto = (index: number, data: Buffer | undefined) => {
    if (!data) return post({ type: 'photo', index });
    if (data.byteOffset === 0 && data.byteLength === data.buffer.byteLength) {
      const bytes = new Uint8Array(data.buffer, 0, data.byteLength);
      try {
        worker.postMessage({ type: 'photo', index, data: bytes } satisfies ToThread, [
          bytes.buffer as ArrayBuffer,
        ]);
        return;
      } catch {
        // Not transferable: copied below.
      }
    }
    post({ type: 'photo', index, data: Uint8Array.from(data) });
  };
  return new Promise<RenderResult>((resolve, reject) => {
    let settled = false;
    let done = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      reject(error instanceof Error ? error : new Error(String(error)));
    };
    // Photos are asked for in bursts (the prefetch at the start), and each fetch starts in a turn
    // of the event loop of its own. The first one goes alone: it sets the storage client up, and
    // fetches started meanwhile all waited for that and went on together, signing and sending
    // in one turn (40–60 ms of blocked loop in a fresh process).
    const loads: number[] = [];
    let loading = false;
    let firstDone = false;
    const startLoad = () => {
      const index = loads.shift();
      if (index === undefined || settled) {
        loading = false;
        return;
      }
      const loaded = callbacks.loadPhoto(index).then((data) => sendPhoto(index, data));
      loaded.catch(fail);
      const next = () => setImmediate(startLoad);
      if (firstDone) next();
      else
        loaded.then(() => {
          firstDone = true;
          next();
        }, next);
    };
    // Progress is recorded in order, one update at a time.
    let progress = Promise.resolve();
    worker.on('message', (message: FromThread) => {
      if (message.type === 'load') {
        loads.push(message.index);
        if (!loading) {
          loading = true;
          setImmediate(startLoad);
        }
      } else if (message.type === 'progress') {
        progress = progress.then(() => callbacks.onProgress(message.done, message.total)).catch(fail);
      } else if (message.type === 'done') {
        done = true;
        // The thread's memory is given back before the caller goes on (to the upload).
        void progress.then(async () => {
          if (settled) return;
          settled = true;
          await worker.terminate();
          resolve(message.result);
        });
      } else {
        fail(new Error(message.message));
      }
    });
    worker.on('error', fail);
    // The thread may end on its own once the PDF is written.
    worker.on('exit', (code) => {
      if (!done) fail(new Error(`render thread exited (${code})`));
    });
  });
}
