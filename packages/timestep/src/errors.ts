/** Thrown for bad arguments to a public function of `@cuttle/timestep`. */
export class TimestepError extends Error {
  /** Always `'TimestepError'`, so logs and `error.name` checks tell it from other errors. */
  override readonly name = 'TimestepError';
}
