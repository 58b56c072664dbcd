/** Options of `example`; replace with the package's own types. */
export interface ExampleOptions {
  /** How many times to repeat the input. */
  times: number;
}
