// The words a damaged compiled texture is refused with, the same whichever thread transcoded it.
import { EngineError } from '../errors.ts';
import type { Ktx2Error } from '../textures/ktx2-header.ts';

export function damagedTexture(name: string, error: Ktx2Error): EngineError {
  return new EngineError(`compiled texture ${name} ${error.message}; compile it again (cuttle-engine compile --force rebuilds every output).`);
}
