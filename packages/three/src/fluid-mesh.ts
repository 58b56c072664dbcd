// A @cuttle/gpu-fluid simulation as a three.js object: every particle a small sphere, drawn by
// three straight from the simulation's position buffer (no copy: the buffer is adopted as a
// storage attribute the vertex stage reads by instance index), lit by three's lights, in its
// shadow and depth passes, depth-tested against the rest of the scene.
import type { FluidSimulation } from '@cuttle/gpu-fluid';
import { cameraWorldMatrix, float, instanceIndex, positionLocal, sqrt, storage, uv, vec3, vec4 } from 'three/tsl';
import { IcosahedronGeometry, Mesh, MeshStandardNodeMaterial, PlaneGeometry, StorageInstancedBufferAttribute, type BufferGeometry, type WebGPURenderer } from 'three/webgpu';
import { adoptGpuBuffer, deviceOf } from './backend.ts';
import { ThreeError } from './errors.ts';

/** Options of {@link FluidMesh}'s constructor; every one has a default. */
export interface FluidMeshOptions {
  /** Sphere radius in world units (default 0.05). */
  radius?: number;
  /**
   * 'sphere' (default): an icosahedron per particle, true geometry in every pass. 'sprite': a
   * camera-facing quad per particle (2 triangles) lit as the sphere it stands for and cut to its
   * disc: for a million particles, where 80 triangles each cost more than the simulation.
   */
  shape?: 'sphere' | 'sprite';
  /** Icosahedron subdivisions of each sphere (default 1: 80 triangles); spheres only. */
  detail?: number;
  /** The material (default a watery MeshStandardNodeMaterial); its positionNode is set to place the spheres. */
  material?: MeshStandardNodeMaterial;
}

/** Floats per particle in the simulation's position buffer (vec4: xyz, w). */
const POSITION_FLOATS = 4;

/** A `@cuttle/gpu-fluid` simulation as a three.js mesh: every particle a small sphere (or a sphere-shaded sprite) drawn by three straight from the simulation's position buffer (no copy), lit by three's lights and in its shadow and depth passes. */
export class FluidMesh extends Mesh<BufferGeometry, MeshStandardNodeMaterial> {
  /** The simulation drawn. */
  readonly fluid: FluidSimulation;
  /** The storage attribute whose GPU buffer is the simulation's position buffer. */
  readonly positions: StorageInstancedBufferAttribute;

  /**
   * `fluid` must live on `renderer`'s device (`new FluidSimulation(deviceOf(renderer), …)`), and
   * the renderer must be initialized. Call `sync()` once a frame, after stepping the fluid.
   */
  constructor(renderer: WebGPURenderer, fluid: FluidSimulation, options: FluidMeshOptions = {}) {
    const radius = options.radius ?? 0.05;
    const detail = options.detail ?? 1;
    const shape = options.shape ?? 'sphere';
    // Checked at run time too: JavaScript callers may pass any string.
    if (!(['sphere', 'sprite'] as readonly string[]).includes(shape)) throw new ThreeError(`shape must be 'sphere' or 'sprite', got ${shape}.`);
    if (!(radius > 0 && Number.isFinite(radius))) throw new ThreeError(`radius must be a positive number, got ${radius}.`);
    if (!Number.isInteger(detail) || detail < 0 || detail > 5) throw new ThreeError(`detail must be an integer in 0..5, got ${detail}.`);
    // Refuses a renderer that is not initialized, or runs on WebGL, before anything is made.
    deviceOf(renderer);
    // The CPU side of the attribute is one particle: three never uploads it (the GPU buffer is
    // adopted before first use) and binds the whole GPU buffer, whose capacity the node declares.
    const positions = new StorageInstancedBufferAttribute(new Float32Array(POSITION_FLOATS), POSITION_FLOATS);
    adoptGpuBuffer(renderer, positions, fluid.positionBuffer);
    const material = options.material ?? new MeshStandardNodeMaterial({ color: 0x3f8fd0, roughness: 0.15, metalness: 0 });
    // instanceIndex is TSL's shared node constant; @types/three types it as a class it was not constructed by.
    // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment
    const centre = storage(positions, 'vec4', fluid.capacity).element(instanceIndex).xyz;
    if (shape === 'sphere') {
      material.positionNode = positionLocal.mul(radius).add(centre);
    } else {
      // The quad's corners along the camera's right and up axes; the normal rises out of the
      // quad towards the camera as a sphere's would, and fragments outside the disc are cut.
      material.positionNode = centre.add(cameraWorldMatrix.mul(vec4(positionLocal.xy.mul(radius), 0, 0)).xyz);
      const corner = uv().mul(2).sub(1);
      const squared = corner.dot(corner);
      material.normalNode = vec3(corner, sqrt(float(1).sub(squared).max(0)));
      material.maskNode = squared.lessThanEqual(1);
    }
    super(shape === 'sphere' ? new IcosahedronGeometry(1, detail) : new PlaneGeometry(2, 2), material);
    this.fluid = fluid;
    this.positions = positions;
    // Where the particles are is known only on the GPU: no bounding sphere to cull by.
    this.frustumCulled = false;
    this.sync();
  }

  /** Draws as many spheres as the simulation has particles now (call after emitting or stepping). */
  sync(): void {
    this.count = this.fluid.count;
  }
}
