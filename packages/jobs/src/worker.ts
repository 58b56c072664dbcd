// The default worker entry for Node (dist/worker.js): it imports the kernel module URLs the
// pool sends. Browsers and bundlers use their own small worker script calling startJobWorker.
import { startJobWorker } from './worker-main.ts';

await startJobWorker();
