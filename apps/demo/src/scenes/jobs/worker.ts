// One job worker: Vite bundles this file (and the kernels it imports) as a module worker.
import { startJobWorker } from '@cuttle/jobs';
import * as kernels from './kernels.ts';

void startJobWorker([kernels]);
