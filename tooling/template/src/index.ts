export { example } from './example.ts';
export { __CLASS__Error } from './errors.ts';
export type { ExampleOptions } from './api.ts';
