export { RenderError } from './errors.ts';
export type { Mat4, Vec3 } from './api.ts';
