// Carries a partition's messages between the coordinator's thread and the partition's process. The coordinator's
// replay is one synchronous loop: it cannot hear a child process, but it can read a message port synchronously
// (receiveMessageOnPort) once this thread says, through a counter in shared memory, that an answer is there.
import { fork } from 'node:child_process';
import { workerData } from 'node:worker_threads';

const { port, counter, entry } = workerData;
const answers = new Int32Array(counter);
let closing = false;
const answer = (message) => {
  if (closing) return;
  port.postMessage(message);
  Atomics.add(answers, 0, 1);
  Atomics.notify(answers, 0);
};
// Plain Node for the child, whatever flags started this process (a test runner's, an inspector).
const child = fork(entry, [], {
  serialization: 'advanced',
  execArgv: [],
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
child.on('message', answer);
child.on('error', (e) => answer({ kind: 'failed', message: `the partition process failed: ${e.message}` }));
child.on('exit', (code, signal) =>
  answer({ kind: 'failed', message: `the partition process exited (${signal ?? `code ${code}`})` }),
);
port.on('message', (message) => {
  if (message === 'close') {
    closing = true;
    child.kill();
    port.close();
  } else child.send(message);
});
