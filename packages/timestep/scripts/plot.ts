// Renders raw versus smoothed frame time over two traces, like the picture in the post:
//
//   npx tsx scripts/plot.ts            → docs/smoothing.png
//
// Top: a synthetic trace that walks through jitter, glitch frames, the zig-zag and a drop to
// 30 Hz. Bottom: requestAnimationFrame as recorded in headless Chromium. Yellow is the raw frame
// time, red the step @cuttle/timestep's default TimeStep hands the game.
import { mkdirSync, writeFileSync } from 'node:fs';
import { TimeStep } from '../src/index.ts';
import { glitches, jitter, rateChange, recorded, zigzag } from '../test/traces.ts';
import { FONT, GLYPH_HEIGHT, GLYPH_WIDTH } from './font5x7.ts';
import { encodePng } from './png.ts';

type Rgb = readonly [number, number, number];

const WIDTH = 960;
const HEIGHT = 600;
const BACKGROUND: Rgb = [20, 24, 31];
const GRID: Rgb = [52, 58, 70];
const AXIS: Rgb = [150, 156, 168];
const TEXT: Rgb = [215, 220, 228];
const RAW: Rgb = [242, 201, 76];
const SMOOTHED: Rgb = [235, 87, 87];

const pixels = new Uint8Array(WIDTH * HEIGHT * 3);

function plot(x: number, y: number, c: Rgb): void {
  if (x < 0 || y < 0 || x >= WIDTH || y >= HEIGHT) return;
  const i = (y * WIDTH + x) * 3;
  pixels[i] = c[0];
  pixels[i + 1] = c[1];
  pixels[i + 2] = c[2];
}

function fillRect(x: number, y: number, w: number, h: number, c: Rgb): void {
  for (let yy = y; yy < y + h; yy++) for (let xx = x; xx < x + w; xx++) plot(xx, yy, c);
}

/** A line `thickness` pixels wide (a square brush walked along Bresenham's line). */
function line(x0: number, y0: number, x1: number, y1: number, c: Rgb, thickness = 2): void {
  x0 = Math.round(x0);
  y0 = Math.round(y0);
  x1 = Math.round(x1);
  y1 = Math.round(y1);
  const dx = Math.abs(x1 - x0);
  const dy = -Math.abs(y1 - y0);
  const sx = x0 < x1 ? 1 : -1;
  const sy = y0 < y1 ? 1 : -1;
  let err = dx + dy;
  const half = Math.floor(thickness / 2);
  for (;;) {
    fillRect(x0 - half, y0 - half, thickness, thickness, c);
    if (x0 === x1 && y0 === y1) break;
    const e2 = 2 * err;
    if (e2 >= dy) {
      err += dy;
      x0 += sx;
    }
    if (e2 <= dx) {
      err += dx;
      y0 += sy;
    }
  }
}

function text(x: number, y: number, s: string, c: Rgb, scale = 2): void {
  let cx = x;
  for (const ch of s.toUpperCase()) {
    const glyph = FONT[ch] ?? FONT[' ']!;
    for (let row = 0; row < GLYPH_HEIGHT; row++) {
      for (let col = 0; col < GLYPH_WIDTH; col++) {
        if ((glyph[row]! >> (GLYPH_WIDTH - 1 - col)) & 1) fillRect(cx + col * scale, y + row * scale, scale, scale, c);
      }
    }
    cx += (GLYPH_WIDTH + 1) * scale;
  }
}

function textWidth(s: string, scale = 2): number {
  return s.length * (GLYPH_WIDTH + 1) * scale - scale;
}

interface Panel {
  title: string;
  frames: Float64Array;
  top: number;
  height: number;
}

function smooth(frames: Float64Array): Float64Array {
  const ts = new TimeStep();
  const out = new Float64Array(frames.length);
  for (let i = 0; i < frames.length; i++) out[i] = ts.advance(frames[i]!);
  return out;
}

const LEFT = 64;
const RIGHT = WIDTH - 20;
const MAX_MS = 60;

function drawPanel(panel: Panel): void {
  const { top, height, frames } = panel;
  const bottom = top + height;
  const y = (ms: number): number => bottom - (Math.min(ms, MAX_MS) / MAX_MS) * height;
  const x = (i: number): number => LEFT + (i / (frames.length - 1)) * (RIGHT - LEFT);

  for (let ms = 0; ms <= MAX_MS; ms += 10) {
    const gy = Math.round(y(ms));
    line(LEFT, gy, RIGHT, gy, ms === 0 ? AXIS : GRID, 1);
    const label = String(ms);
    text(LEFT - 10 - textWidth(label), gy - 7, label, AXIS);
  }
  for (let i = 0; i < frames.length; i += 100) {
    const gx = Math.round(x(i));
    line(gx, bottom, gx, bottom + 5, AXIS, 1);
    text(gx - textWidth(String(i)) / 2, bottom + 10, String(i), AXIS);
  }
  text(LEFT, top - 26, panel.title, TEXT);

  const steps = smooth(frames);
  for (let i = 1; i < frames.length; i++) line(x(i - 1), y(frames[i - 1]! * 1000), x(i), y(frames[i]! * 1000), RAW, 2);
  for (let i = 1; i < frames.length; i++) line(x(i - 1), y(steps[i - 1]! * 1000), x(i), y(steps[i]! * 1000), SMOOTHED, 3);
}

function concat(parts: Float64Array[]): Float64Array {
  const out = new Float64Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

fillRect(0, 0, WIDTH, HEIGHT, BACKGROUND);
const synthetic = concat([jitter(150).frames, glitches(150, 30).frames, zigzag(150).frames, rateChange(150).frames.subarray(50, 150)]);
drawPanel({ title: 'SYNTHETIC: JITTER, GLITCH FRAMES, ZIG-ZAG 60/40 HZ, DROP TO 30 HZ', frames: synthetic, top: 44, height: 200 });
drawPanel({ title: 'RECORDED: CHROMIUM REQUESTANIMATIONFRAME', frames: recorded().frames, top: 330, height: 200 });

// Legend and axis names.
const legendY = HEIGHT - 28;
fillRect(LEFT, legendY + 4, 28, 4, RAW);
text(LEFT + 38, legendY, 'RAW FRAME TIME', TEXT);
fillRect(LEFT + 260, legendY + 3, 28, 6, SMOOTHED);
text(LEFT + 298, legendY, 'SMOOTHED STEP', TEXT);
text(RIGHT - textWidth('X: FRAME, Y: MILLISECONDS'), legendY, 'X: FRAME, Y: MILLISECONDS', AXIS);

const out = new URL('../docs/smoothing.png', import.meta.url);
mkdirSync(new URL('../docs/', import.meta.url), { recursive: true });
const png = encodePng(WIDTH, HEIGHT, pixels);
writeFileSync(out, png);
console.log(`wrote ${out.pathname} (${(png.length / 1024).toFixed(1)} KiB)`);
