// The fluid: a @cuttle/gpu-fluid dam break stepped on the device three draws with and drawn by
// FluidMesh straight from the simulation's position buffer. It is simulated at the package's
// defaults (h = 1) in a box a column of its particles fits, and the mesh's scale brings that
// box down to a tank at the centre of the floor (FluidMesh places particles in its local space).
import { damBreakPositions, FluidSimulation, resolveParameters } from '@cuttle/gpu-fluid';
import { deviceOf, FluidMesh } from '@cuttle/three';
import type { WebGPURenderer } from 'three/webgpu';

/** Metres per simulation unit. */
const SCALE = 0.45;
/** At most this many steps a frame keep a slow frame (SwiftShader) near real time. */
const MAX_STEPS = 3;
/** Simulated seconds before the column is stood up again. */
const REPLAY = 12;

export class FluidTank {
  readonly mesh: FluidMesh;
  readonly #device: GPUDevice;
  readonly #fluid: FluidSimulation;
  readonly #column: Float32Array;
  readonly #dt: number;
  #simulated = 0;

  constructor(renderer: WebGPURenderer, particles: number) {
    // The gpu-fluid scene's box for this count: twice as long as high and deep.
    const side = Math.ceil(Math.cbrt(particles / (8 * 0.4 * 2 * 0.7)));
    const parameters = resolveParameters({ bounds: { min: [0, 0, 0], max: [2 * side, side, side] } });
    this.#dt = parameters.dt;
    this.#device = deviceOf(renderer);
    this.#fluid = new FluidSimulation(this.#device, { capacity: particles, mode: 'counting-sort', parameters });
    this.#column = damBreakPositions(particles, parameters);
    this.#fluid.emit(this.#column);
    this.mesh = new FluidMesh(renderer, this.#fluid, { radius: 0.3, detail: 0 });
    this.mesh.scale.setScalar(SCALE);
    this.mesh.position.set(-side * SCALE, 0, (-side / 2) * SCALE);
  }

  get count(): number {
    return this.#fluid.count;
  }

  /** Steps for `dt` seconds (submitted) when shown; hidden, the fluid waits. */
  update(shown: boolean, dt: number): void {
    this.mesh.visible = shown;
    if (shown && dt > 0) {
      if (this.#simulated > REPLAY) {
        this.#simulated = 0;
        this.#fluid.clear();
        this.#fluid.emit(this.#column);
      }
      const steps = Math.min(MAX_STEPS, Math.max(1, Math.round(dt / this.#dt)));
      const encoder = this.#device.createCommandEncoder({ label: 'demo.three.fluid' });
      for (let s = 0; s < steps; s++) this.#fluid.step(encoder);
      this.#device.queue.submit([encoder.finish()]);
      this.#simulated += steps * this.#dt;
    }
    this.mesh.sync();
  }

  destroy(): void {
    this.#fluid.destroy();
    this.mesh.geometry.dispose();
    this.mesh.material.dispose();
  }
}
