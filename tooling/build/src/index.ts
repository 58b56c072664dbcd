export { rawTextPlugin } from './raw-text-plugin.ts';
export { stripWgslComments } from './strip-wgsl-comments.ts';
export { cuttlePackage } from './tsup-preset.ts';
