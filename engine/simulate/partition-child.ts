/** A part of a replay in a process of its own: answers the coordinator's messages over the IPC channel. */
import { partServer, type ToPart } from './partition-protocol.js';

const serve = partServer();
process.on('message', (message: ToPart) => process.send!(serve(message)));
