// @cuttle/jobs: many particles moved by Dispatch over SharedArrayBuffer data, with a toggle
// that runs the same kernel in a plain loop on the main thread to compare.
import { JobSystem, type JobDispatchArgs } from '@cuttle/jobs';
import { InstancedQuads } from '../../render/instanced-quads.ts';
import type { SceneDefinition } from '../../scene-api.ts';
import * as kernels from './kernels.ts';

const COUNT = 100_000;
const GROUP_SIZE = 2048;

function seed(state: Float32Array, quads: InstancedQuads): void {
  for (let i = 0; i < COUNT; i++) {
    const at = i * kernels.STRIDE;
    state[at] = Math.random() * 2 - 1;
    state[at + 1] = Math.random() * 2 - 1;
    const hue = i / COUNT;
    quads.colors[i * 4] = 0.35 + 0.6 * hue;
    quads.colors[i * 4 + 1] = 0.55 + 0.35 * Math.sin(hue * 6.28);
    quads.colors[i * 4 + 2] = 0.95 - 0.6 * hue;
    quads.colors[i * 4 + 3] = 0.55;
    quads.sizes[i] = 0.004;
  }
}

export const scene: SceneDefinition = {
  id: 'jobs',
  title: 'Job system: 100k particles',
  package: '@cuttle/jobs',
  description: 'Particles in a flow field, updated by Dispatch on worker threads over a SharedArrayBuffer; toggle single-threaded to compare.',
  async create({ device, format, panel }) {
    const quads = new InstancedQuads(device, format, COUNT);
    const isolated = typeof SharedArrayBuffer !== 'undefined' && crossOriginIsolated;
    const state = new Float32Array(isolated ? new SharedArrayBuffer(COUNT * kernels.STRIDE * 4) : new ArrayBuffer(COUNT * kernels.STRIDE * 4));
    seed(state, quads);

    const jobs = isolated
      ? await JobSystem.initialize({
          kernels: [kernels],
          createWorker: (index) => new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: `cuttle-job-worker-${index}` }),
          workerCount: Math.max(1, (navigator.hardwareConcurrency || 2) - 1),
        })
      : null;

    const label = document.createElement('label');
    const toggle = document.createElement('input');
    toggle.type = 'checkbox';
    toggle.checked = !jobs;
    toggle.disabled = !jobs;
    label.append(toggle, ' single-threaded (the same kernel in a loop on the main thread)');
    const note = document.createElement('p');
    note.textContent = jobs
      ? `${jobs.workerCount} workers + the main thread (it helps inside waitAsync). Dispatch(${COUNT.toLocaleString()}, ${GROUP_SIZE}, moveParticles, state, dt, time).`
      : 'Not cross-origin isolated (COOP/COEP headers missing): SharedArrayBuffer is unavailable, running single-threaded.';
    panel.append(label, note);

    const job: JobDispatchArgs = { jobIndex: 0, groupIndex: 0 };
    let stepMs = 0;
    let inFlight = false;
    let failure = '';

    function stepOnJobs(system: JobSystem, dt: number, time: number): void {
      const start = performance.now();
      inFlight = true;
      system.dispatch(COUNT, GROUP_SIZE, kernels.moveParticles, state, dt, time);
      system.waitAsync().then(
        () => {
          stepMs = performance.now() - start;
          inFlight = false;
        },
        (error: unknown) => {
          failure = String(error);
          inFlight = false;
        },
      );
    }

    function stepSerial(dt: number, time: number): void {
      const start = performance.now();
      for (let i = 0; i < COUNT; i++) {
        job.jobIndex = i;
        kernels.moveParticles(job, state, dt, time);
      }
      stepMs = performance.now() - start;
    }

    return {
      frame({ dt, time, encoder, target, width, height }) {
        if (!jobs || toggle.checked) {
          if (!inFlight) stepSerial(dt, time);
        } else if (!inFlight) {
          stepOnJobs(jobs, dt, time);
        }
        // Workers may be mid-step: a particle drawn one step early is invisible at this size.
        const positions = quads.positions;
        for (let i = 0; i < COUNT; i++) {
          positions[i * 2] = state[i * kernels.STRIDE]!;
          positions[i * 2 + 1] = state[i * kernels.STRIDE + 1]!;
        }
        quads.draw(encoder, target, COUNT, width / height);
      },
      stats: () => ({
        particles: COUNT.toLocaleString(),
        mode: !jobs || toggle.checked ? 'single-threaded' : `${jobs.workerCount + 1} threads`,
        step: `${stepMs.toFixed(1)} ms`,
        ...(failure ? { error: failure } : {}),
      }),
      destroy() {
        quads.destroy();
        void jobs?.shutdown();
      },
    };
  },
};
