import { cuttleConfig } from '@cuttle/eslint-config';

export default cuttleConfig({ root: import.meta.dirname + '/../..' });
