// The scene's kernel module: loaded by every worker (worker.ts) and by the main thread,
// which runs it in a plain loop when the toggle asks for single-threaded.
import type { JobDispatchArgs } from '@cuttle/jobs';

/** Floats per particle: x, y, vx, vy. */
export const STRIDE = 4;

/**
 * Moves particle `jobIndex` through a swirling flow field (a few octaves of trigonometric
 * noise, enough arithmetic that the update is worth spreading over cores) and wraps it
 * around the [-1, 1] square.
 */
export function moveParticles(job: JobDispatchArgs, state: Float32Array, dt: number, time: number): void {
  const at = job.jobIndex * STRIDE;
  let x = state[at]!;
  let y = state[at + 1]!;
  let fx = 0;
  let fy = 0;
  let scale = 1.5;
  let weight = 1;
  for (let octave = 0; octave < 6; octave++) {
    const u = x * scale + time * 0.21 * (octave + 1);
    const v = y * scale - time * 0.17 * (octave + 1);
    fx += weight * Math.sin(v) * Math.cos(u * 0.7);
    fy -= weight * Math.sin(u) * Math.cos(v * 0.7);
    scale *= 2.1;
    weight *= 0.55;
  }
  const vx = state[at + 2]! * 0.96 + fx * 0.02;
  const vy = state[at + 3]! * 0.96 + fy * 0.02;
  x += vx * dt * 2;
  y += vy * dt * 2;
  if (x > 1) x -= 2;
  else if (x < -1) x += 2;
  if (y > 1) y -= 2;
  else if (y < -1) y += 2;
  state[at] = x;
  state[at + 1] = y;
  state[at + 2] = vx;
  state[at + 3] = vy;
}
