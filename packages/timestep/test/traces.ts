// Frame-time traces (seconds per frame) shared by the tests, the benchmarks and the plot script.
import { readFileSync } from 'node:fs';

export interface Trace {
  name: string;
  /** Measured frame times in seconds. */
  frames: Float64Array;
}

/** A small seeded PRNG (mulberry32) so every trace is the same on every run. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HZ60 = 1 / 60;

export function steady(count = 600, frameTime = HZ60): Trace {
  return { name: 'steady 60 Hz', frames: new Float64Array(count).fill(frameTime) };
}

/** 60 Hz with ±`spreadMs` of uniform noise, as vsync-less timing measures it. */
export function jitter(count = 600, spreadMs = 3, seed = 1): Trace {
  const rnd = random(seed);
  const frames = new Float64Array(count);
  for (let i = 0; i < count; i++) frames[i] = HZ60 + ((rnd() * 2 - 1) * spreadMs) / 1000;
  return { name: 'jitter ±3 ms', frames };
}

/** The post's zig-zag: a game oscillating between two frame rates (60 and 40 Hz) each frame. */
export function zigzag(count = 600, a = HZ60, b = 1 / 40): Trace {
  const frames = new Float64Array(count);
  for (let i = 0; i < count; i++) frames[i] = i % 2 === 0 ? a : b;
  return { name: 'zig-zag 60/40 Hz', frames };
}

/** Steady 60 Hz with a single 100 ms glitch frame every `every` frames. */
export function glitches(count = 600, every = 50, glitch = 0.1): Trace {
  const frames = new Float64Array(count).fill(HZ60);
  for (let i = every / 2; i < count; i += every) frames[i] = glitch;
  return { name: 'glitch frames', frames };
}

/** Steady 60 Hz with one long stall (a hidden tab or a debugger pause) in the middle. */
export function stall(count = 600, seconds = 3): Trace {
  const frames = new Float64Array(count).fill(HZ60);
  frames[count >> 1] = seconds;
  return { name: 'long stall 3 s', frames };
}

/** The frame rate drops from 60 to 30 Hz and comes back: the case that makes a filter drift. */
export function rateChange(count = 600): Trace {
  const frames = new Float64Array(count);
  for (let i = 0; i < count; i++) frames[i] = i >= count / 3 && i < (2 * count) / 3 ? 1 / 30 : HZ60;
  return { name: 'rate change 60→30→60 Hz', frames };
}

export interface RecordedTrace {
  note: string;
  browser: string;
  recorded: string;
  /** requestAnimationFrame timestamp differences in milliseconds. */
  deltasMs: number[];
}

/** requestAnimationFrame deltas recorded in headless Chromium (scripts/record-trace.ts). */
export function recorded(): Trace {
  const url = new URL('./fixtures/chromium-raf-trace.json', import.meta.url);
  const data = JSON.parse(readFileSync(url, 'utf8')) as RecordedTrace;
  return { name: 'recorded Chromium rAF', frames: Float64Array.from(data.deltasMs, (ms) => ms / 1000) };
}

/**
 * requestAnimationFrame deltas of the Cuttle demo itself (its ECS scene, WebGPU on SwiftShader
 * in headless Chromium), recorded by apps/demo/e2e/record-frame-trace.ts: slow, uneven frames
 * and a start-up stall, as a software-rendered page really produces.
 */
export function recordedDemo(): Trace {
  const url = new URL('./fixtures/demo-raf-trace.json', import.meta.url);
  const data = JSON.parse(readFileSync(url, 'utf8')) as RecordedTrace;
  return { name: 'recorded demo rAF', frames: Float64Array.from(data.deltasMs, (ms) => ms / 1000) };
}

export function allTraces(): Trace[] {
  return [steady(), jitter(), zigzag(), glitches(), stall(), rateChange(), recorded(), recordedDemo()];
}

/** Mean and largest |step[i] - step[i-1]|, in seconds. */
export function stepVariation(steps: Float64Array): { mean: number; max: number } {
  let sum = 0;
  let max = 0;
  for (let i = 1; i < steps.length; i++) {
    const d = Math.abs(steps[i]! - steps[i - 1]!);
    sum += d;
    if (d > max) max = d;
  }
  return { mean: steps.length > 1 ? sum / (steps.length - 1) : 0, max };
}

/** Largest |game clock - wall clock| over the trace, in seconds. */
export function worstDrift(frames: Float64Array, steps: Float64Array): number {
  let wall = 0;
  let game = 0;
  let worst = 0;
  for (let i = 0; i < frames.length; i++) {
    wall += frames[i]!;
    game += steps[i]!;
    const drift = Math.abs(game - wall);
    if (drift > worst) worst = drift;
  }
  return worst;
}

