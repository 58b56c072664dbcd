import { cuttleConfig } from '@cuttle/eslint-config';

// Harnesses are fragments: they refer to the README example's variables and are typechecked only
// once wrapped around it, in the packed-install test's project (see packed/README.md).
export default [{ ignores: ['packed/*.harness.ts'] }, ...cuttleConfig({ root: import.meta.dirname + '/../..' })];
