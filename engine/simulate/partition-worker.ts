/** A part of a replay in a worker thread: answers the coordinator's messages (partition-protocol.ts). */
import { parentPort } from 'node:worker_threads';
import { partServer, type ToPart } from './partition-protocol.js';
import { buffersOf } from './buffers.js';

const serve = partServer();
parentPort!.on('message', (m: ToPart) => {
  const answer = serve(m);
  // The part's figures are handed over at the end, not copied.
  parentPort!.postMessage(answer, answer.kind === 'finished' ? buffersOf(answer) : []);
});
