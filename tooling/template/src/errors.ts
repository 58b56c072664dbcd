/** Thrown for bad arguments to a public function of @cuttle/__NAME__. */
export class __CLASS__Error extends Error {
  override readonly name = '__CLASS__Error';
}
