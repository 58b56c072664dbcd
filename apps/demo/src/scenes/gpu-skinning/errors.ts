/** A dropped model (or a crowd of it) the skinning scene refuses; the message says what to do. */
export class CharacterLoadError extends Error {
  override readonly name = 'CharacterLoadError';
}
