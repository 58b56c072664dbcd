// Three squares cross the screen at the same speed: one advanced by the raw frame time, one by
// @cuttle/timestep's smoothed step, one by a 30 Hz fixed step drawn with interpolation. Below
// them, the last 160 frame times (yellow) against the smoothed step (red). The buttons make the
// page misbehave on purpose: a single glitch frame, or a zig-zag between two frame rates.
import { TimeStep } from '@cuttle/timestep';
import type { SceneDefinition } from '../../scene-api.ts';
import { InstancedQuads } from '../../render/instanced-quads.ts';

const HISTORY = 160;
const SPEED = 0.5; // clip-space units per second
const GRAPH_MS = 60;
const MOVER_COLORS = [0.95, 0.79, 0.3, 1, 0.92, 0.34, 0.34, 1, 0.35, 0.6, 0.95, 1];
const GRAPH_COLORS = [0.95, 0.79, 0.3, 1, 0.92, 0.34, 0.34, 1];

function busyWait(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Stand-in for a slow frame.
  }
}

function button(label: string, onClick: () => void): HTMLButtonElement {
  const b = document.createElement('button');
  b.textContent = label;
  b.addEventListener('click', onClick);
  return b;
}

export const scene: SceneDefinition = {
  id: 'timestep',
  title: 'Time step smoothing',
  package: '@cuttle/timestep',
  description: "BitSquid's filter against raw and fixed steps; inject glitch frames or a zig-zag and watch the red line.",
  create({ device, format, panel }) {
    const quads = new InstancedQuads(device, format, 3 + 2 * HISTORY);
    // Graph colours never change: fill them once.
    for (let i = 0; i < HISTORY; i++) quads.colors.set(GRAPH_COLORS, (3 + i * 2) * 4);
    const raw = new TimeStep({ policy: 'variable' });
    const smoothed = new TimeStep({ policy: 'smoothed' });
    const fixed = new TimeStep({ policy: 'fixed', fixedStep: 1 / 30 });
    const rawHistory = new Float64Array(HISTORY);
    const smoothHistory = new Float64Array(HISTORY);
    let head = 0;
    let xRaw = 0;
    let xSmooth = 0;
    let xFixed = 0;
    let xFixedPrevious = 0;
    let glitchPending = false;
    let zigzag = false;
    let frameCount = 0;

    panel.append(
      button('Glitch frame (80 ms)', () => {
        glitchPending = true;
      }),
      button('Toggle zig-zag', () => {
        zigzag = !zigzag;
      }),
    );

    const wrap = (x: number): number => (x > 1 ? x - 2 : x);

    return {
      frame({ encoder, target, width, height }) {
        if (glitchPending) {
          busyWait(80);
          glitchPending = false;
        }
        if (zigzag && frameCount % 2 === 0) busyWait(12);
        frameCount++;
        const now = performance.now() / 1000;
        xRaw = wrap(xRaw + SPEED * raw.tick(now));
        xSmooth = wrap(xSmooth + SPEED * smoothed.tick(now));
        fixed.tick(now);
        for (let i = 0; i < fixed.steps; i++) {
          xFixedPrevious = xFixed;
          xFixed = wrap(xFixed + SPEED * fixed.updateDelta);
          if (xFixed < xFixedPrevious) xFixedPrevious -= 2;
        }
        rawHistory[head] = raw.rawDelta;
        smoothHistory[head] = smoothed.delta;
        head = (head + 1) % HISTORY;

        const { positions: p, colors: c, sizes: s } = quads;
        // Three movers: raw (yellow), smoothed (red), fixed 30 Hz interpolated (blue).
        p[0] = xRaw;
        p[1] = 0.75;
        p[2] = xSmooth;
        p[3] = 0.55;
        p[4] = xFixedPrevious + (xFixed - xFixedPrevious) * fixed.alpha;
        p[5] = 0.35;
        c.set(MOVER_COLORS, 0);
        s[0] = s[1] = s[2] = 0.1;
        for (let i = 0; i < HISTORY; i++) {
          const slot = (head + i) % HISTORY;
          const x = -0.95 + (1.9 * i) / (HISTORY - 1);
          const q = 3 + i * 2;
          p[q * 2] = x;
          p[q * 2 + 1] = -0.9 + Math.min(rawHistory[slot]! * 1000, GRAPH_MS) / GRAPH_MS;
          p[q * 2 + 2] = x;
          p[q * 2 + 3] = -0.9 + Math.min(smoothHistory[slot]! * 1000, GRAPH_MS) / GRAPH_MS;
          s[q] = 0.012;
          s[q + 1] = 0.018;
        }
        quads.draw(encoder, target, 3 + 2 * HISTORY, width / height);
      },
      stats: () => ({
        raw: `${(raw.rawDelta * 1000).toFixed(1)} ms`,
        smoothed: `${(smoothed.delta * 1000).toFixed(1)} ms`,
        debt: `${(smoothed.debt * 1000).toFixed(1)} ms`,
        stalls: String(smoothed.stalls),
      }),
      destroy() {
        quads.destroy();
      },
    };
  },
};
