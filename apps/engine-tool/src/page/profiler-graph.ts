// The profiler graph: CPU time per frame (update, record, GPU wait and readback, encode) as
// stacked bars, newest on the right, with the sum of the GPU pass timings as a line.
export interface ProfilerSample {
  cpu: { update: number; record: number; readback: number; encode: number; total: number };
  gpu: Record<string, number>;
}

const COLORS = { update: '#6c6', record: '#69f', readback: '#c96', encode: '#c6c' } as const;

export class ProfilerGraph {
  readonly #samples: ProfilerSample[] = [];
  constructor(readonly canvas: HTMLCanvasElement) {}

  add(sample: ProfilerSample): void {
    this.#samples.push(sample);
    if (this.#samples.length > 160) this.#samples.shift();
    this.draw();
  }

  draw(): void {
    const ctx = this.canvas.getContext('2d');
    if (!ctx) return;
    const { width, height } = this.canvas;
    ctx.fillStyle = '#111';
    ctx.fillRect(0, 0, width, height);
    const max = Math.max(50, ...this.#samples.map((s) => s.cpu.total));
    const bar = width / 160;
    this.#samples.forEach((s, i) => {
      let y = height;
      for (const key of ['update', 'record', 'readback', 'encode'] as const) {
        const h = (s.cpu[key] / max) * (height - 12);
        ctx.fillStyle = COLORS[key];
        ctx.fillRect(i * bar, y - h, Math.max(1, bar - 1), h);
        y -= h;
      }
    });
    ctx.strokeStyle = '#fff';
    ctx.beginPath();
    this.#samples.forEach((s, i) => {
      const gpu = Object.values(s.gpu).reduce((a, b) => a + b, 0);
      const y = height - (gpu / max) * (height - 12);
      if (i === 0) ctx.moveTo(i * bar, y);
      else ctx.lineTo(i * bar, y);
    });
    ctx.stroke();
    const last = this.#samples.at(-1);
    ctx.fillStyle = '#ccc';
    ctx.font = '11px sans-serif';
    if (last) ctx.fillText(`frame ${last.cpu.total.toFixed(0)} ms (scale ${max.toFixed(0)} ms) · update · record · GPU wait+readback · encode · line: GPU passes`, 4, 11);
  }
}
