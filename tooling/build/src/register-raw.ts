// `tsx --import ./tooling/build/src/register-raw.ts ...` installs the ?raw hook.
import { register } from 'node:module';

register('./node-raw-hooks.ts', import.meta.url);
