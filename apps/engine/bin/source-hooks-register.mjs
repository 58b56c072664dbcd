// `node --import ./bin/source-hooks-register.mjs`: the source hooks for scripts run under tsx.
import { register } from 'node:module';

register('./source-hooks.mjs', import.meta.url);
