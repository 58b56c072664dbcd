export { rawTextPlugin } from './raw-text-plugin.ts';
export { cuttlePackage } from './tsup-preset.ts';
