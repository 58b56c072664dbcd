import { FluidPointRenderer, FluidSimulation, damBreakPositions, resolveParameters, type FluidParameters, type NeighbourMode } from '@cuttle/gpu-fluid';
import { control, slider } from '../../controls.ts';
import type { SceneDefinition } from '../../scene-api.ts';

const COUNTS = [10_000, 50_000, 200_000, 1_000_000];
const MODES: NeighbourMode[] = ['counting-sort', 'hashed-grid', 'nbody'];
const MIN_H = 0.75;

/** A box twice as long as high and deep that a dam-break column of `count` particles fits. */
function parametersFor(count: number): FluidParameters {
  const side = Math.ceil(Math.cbrt(count / (8 * 0.4 * 2 * 0.7)));
  return resolveParameters({ bounds: { min: [0, 0, 0], max: [2 * side, side, side] } });
}

export const scene: SceneDefinition = {
  id: 'gpu-fluid',
  title: 'SPH dam break',
  package: '@cuttle/gpu-fluid',
  description: 'A column of water collapses in a box: SPH on the GPU with a counting-sort grid, a hashed grid or tiled N-body.',
  create({ device, format, panel, hasTimestamps }) {
    let count = COUNTS[0]!;
    let fluid: FluidSimulation | undefined;
    let mode: NeighbourMode = 'counting-sort';
    let lostMessage = '';
    const renderer = new FluidPointRenderer(device, format);
    const querySet = hasTimestamps ? device.createQuerySet({ type: 'timestamp', count: 2 }) : undefined;
    const resolve = device.createBuffer({ size: 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
    const readback = device.createBuffer({ size: 16, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
    let readbackState: 'idle' | 'copied' | 'mapping' = 'idle';
    let gpuMs = Number.NaN;

    const countSelect = control(panel, 'particles', document.createElement('select'));
    for (const n of COUNTS) countSelect.add(new Option(n.toLocaleString('en-US'), String(n)));
    const modeSelect = control(panel, 'neighbour search', document.createElement('select'));
    for (const m of MODES) modeSelect.add(new Option(m, m));
    const viscosity = control(panel, 'viscosity', slider(0, 1, 0.01, 0.018));
    const k = control(panel, 'pressure K', slider(10, 1000, 10, 250));
    const h = control(panel, 'smoothing radius h', slider(MIN_H, 2, 0.05, 1));
    const stepsPerFrame = control(panel, 'steps per frame', slider(1, 8, 1, 2));
    const reset = document.createElement('button');
    reset.textContent = 'reset';
    panel.append(reset);

    function rebuild(): void {
      fluid?.destroy();
      const parameters = { ...parametersFor(count), viscosity: Number(viscosity.value), k: Number(k.value) };
      // Room for the finest h the slider allows, so moving it never outgrows the grid.
      const [x, y, z] = parameters.bounds.max;
      const maxCells = Math.ceil(x / MIN_H) * Math.ceil(y / MIN_H) * Math.ceil(z / MIN_H);
      // N-body past 50k particles would take seconds per frame.
      const safeMode = mode === 'nbody' && count > 50_000 ? 'counting-sort' : mode;
      modeSelect.value = safeMode;
      fluid = new FluidSimulation(device, { capacity: count, mode: safeMode, parameters, maxCells, onDeviceLost: (info) => { lostMessage = info.message; } });
      fluid.emit(damBreakPositions(count, parameters));
      h.value = '1';
    }
    rebuild();

    countSelect.addEventListener('change', () => { count = Number(countSelect.value); rebuild(); });
    modeSelect.addEventListener('change', () => { mode = modeSelect.value as NeighbourMode; rebuild(); });
    viscosity.addEventListener('input', () => { fluid?.setParameters({ viscosity: Number(viscosity.value) }); });
    k.addEventListener('input', () => { fluid?.setParameters({ k: Number(k.value) }); });
    h.addEventListener('input', () => { fluid?.setParameters({ h: Number(h.value) }); });
    reset.addEventListener('click', rebuild);

    let destroyed = false;
    return {
      frame({ encoder, target, width, height, time }) {
        if (!fluid || lostMessage) return;
        // Timings of the previous frame's steps, once that frame has been submitted.
        if (readbackState === 'copied') {
          readbackState = 'mapping';
          readback.mapAsync(GPUMapMode.READ).then(
            () => {
              const [begin, end] = new BigUint64Array(readback.getMappedRange());
              gpuMs = Number(end! - begin!) / 1e6;
              readback.unmap();
              readbackState = 'idle';
            },
            (error: unknown) => {
              // Leaving the scene destroys the buffer under a pending map: nothing to read then.
              if (!destroyed) lostMessage = `GPU timing readback failed: ${String(error)}`;
            },
          );
        }
        const steps = Number(stepsPerFrame.value);
        const timed = querySet !== undefined && readbackState === 'idle';
        for (let s = 0; s < steps; s++) {
          const writes = timed ? { querySet, ...(s === 0 ? { beginIndex: 0 } : {}), ...(s === steps - 1 ? { endIndex: 1 } : {}) } : undefined;
          fluid.step(encoder, writes);
        }
        if (timed) {
          encoder.resolveQuerySet(querySet, 0, 2, resolve, 0);
          encoder.copyBufferToBuffer(resolve, 0, readback, 0, 16);
          readbackState = 'copied';
        }
        renderer.render(encoder, target, width, height, fluid, { aspect: width / height, yaw: 0.35 * Math.sin(time * 0.2) });
      },
      stats: () => ({
        particles: count.toLocaleString('en-US'),
        mode: fluid?.mode ?? mode,
        // Subgroup scan and sort kernels when the browser's device has subgroups.
        ...(fluid ? { kernels: fluid.kernels.scan } : {}),
        ...(hasTimestamps && Number.isFinite(gpuMs) ? { 'GPU steps': `${gpuMs.toFixed(2)} ms` } : {}),
        ...(lostMessage ? { device: `lost: ${lostMessage}` } : {}),
      }),
      destroy() {
        destroyed = true;
        fluid?.destroy();
        renderer.destroy();
        querySet?.destroy();
        resolve.destroy();
        readback.destroy();
      },
    };
  },
};
