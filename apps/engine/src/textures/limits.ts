/** WebGPU's guaranteed maxTextureDimension2D: a larger texture would not load everywhere. */
export const MAX_TEXTURE_SIZE = 8192;
