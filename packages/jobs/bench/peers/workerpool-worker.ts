// workerpool's worker: methods registered by name, arguments as a list.
import workerpool from 'workerpool';
import { computeRange, smallJob } from '../kernels.ts';

workerpool.worker({
  empty: () => null,
  computeRange: (data: Float32Array, start: number, end: number) => {
    computeRange(data, start, end);
    return null;
  },
  smallJob: (values: Float32Array, sums: Float32Array, slot: number) => {
    smallJob(values, sums, slot);
    return null;
  },
});
