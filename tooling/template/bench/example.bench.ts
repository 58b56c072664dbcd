import { defineSuite, opsPerSecond } from '@cuttle/bench';
import { example } from '../src/index.ts';

// Replace the peer with the named npm library this package is measured against.
export const suite = defineSuite({
  package: '@cuttle/__NAME__',
  cases: [
    {
      name: 'fill 1024 floats',
      unit: 'ops/s',
      higherIsBetter: true,
      ours: () => opsPerSecond(() => example(1, { times: 1024 })),
      peers: { 'Array.fill': () => opsPerSecond(() => new Array<number>(1024).fill(1)) },
    },
  ],
});
