import { createWriteStream } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { renderQuartettPdf } from './render.js';
import type { FromThread, ThreadInput, ToThread } from './thread.js';

/**
 * The renderer's thread: draws the PDF into the file it is given; asks the main thread for each
 * card's photo (`load`) and reports progress after each card.
 */
const input = workerData as ThreadInput;
const port = parentPort!;
const post = (message: FromThread) => port.postMessage(message);

const waiting = new Map<
  number,
  { resolve: (data: Buffer | undefined) => void; reject: (error: Error) => void }
>();
port.on('message', (message: ToThread) => {
  const request = waiting.get(message.index);
  if (!request) return;
  waiting.delete(message.index);
  if (message.type === 'photo-error') request.reject(new Error(message.message));
  else
    request.resolve(
      message.data
        ? Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength)
        : undefined,
    );
});

renderQuartettPdf(createWriteStream(input.file), {
  title: input.title,
  version: input.version,
  eventName: input.eventName,
  prefetch: input.prefetch,
  cards: input.cards.map((card, index) => ({ face: card.face, ...(card.photo ? { photo: index } : {}) })),
  loadPhoto: (index) =>
    new Promise<Buffer | undefined>((resolve, reject) => {
      waiting.set(index, { resolve, reject });
      post({ type: 'load', index });
    }),
  onProgress: (done, total) => post({ type: 'progress', done, total }),
}).then(
  (result) => post({ type: 'done', result }),
  (error: unknown) =>
    post({ type: 'error', message: error instanceof Error ? error.message : String(error) }),
);
