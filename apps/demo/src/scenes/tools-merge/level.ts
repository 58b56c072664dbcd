// The level both people edit: a trimmed copy of the engine's sample level in the same SJSON
// shape (comments, bare keys, `units = [ { id = ... } ]`), so the merge sees what a designer's
// file looks like.
import courtyardLevel from './courtyard.level?raw';

export const BASE_LEVEL: string = courtyardLevel;
