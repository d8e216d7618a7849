/** A serving partition in a process of its own: answers the coordinator's messages over the IPC channel. */
import { partitionServer, type ToPartition } from './partition-protocol.js';

const answer = partitionServer();
process.on('message', (message: ToPartition) => process.send!(answer(message)));
