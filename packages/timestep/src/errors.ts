/** Thrown for bad arguments to a public function of @cuttle/timestep. */
export class TimestepError extends Error {
  override readonly name = 'TimestepError';
}
