/** Thrown for bad arguments to a public function of `@cuttle/three`, or a three.js it does not support; nothing was changed. */
export class ThreeError extends Error {
  /** Always `'ThreeError'`. */
  override readonly name = 'ThreeError';
}
