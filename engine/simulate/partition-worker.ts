/** Parts of a replay in a worker thread: each answers the coordinator's messages (partition-protocol.ts). */
import { parentPort } from 'node:worker_threads';
import { partServer, type ToPart } from './partition-protocol.js';
import { buffersOf } from './buffers.js';

const parts = new Map<number, ReturnType<typeof partServer>>();
parentPort!.on('message', ({ part, message }: { part: number; message: ToPart }) => {
  let serve = parts.get(part);
  if (!serve) parts.set(part, (serve = partServer()));
  const answer = serve(message);
  // A part's figures are handed over at the end, not copied.
  parentPort!.postMessage({ part, answer }, answer.kind === 'finished' ? buffersOf(answer) : []);
});
