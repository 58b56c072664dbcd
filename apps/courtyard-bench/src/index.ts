export { buildThreeCourtyard, type ThreeCourtyard, type ThreeCourtyardOptions } from './three-courtyard.ts';
export { courtyardViewAt, type CourtyardView, type Vec3 } from './courtyard-camera.ts';
export { nodeThree, type NodeThree } from './node-three.ts';
