// The level viewer and property editor. It knows the engine only through its protocol: frames
// come as binary messages (a 20-byte header, then a JPEG), everything else as JSON. Edits go
// to the tool's own server, which writes the SJSON source and waits for the compiler; then the
// page sends `reload` and times the edit until the first frame of the new generation.
import type { UnitProperties as Unit } from '../host/level-edit.ts';
import { FlowPanel } from './flow-panel.ts';
import { MemoryPanel } from './memory-panel.ts';
import { ProfilerGraph, type ProfilerSample } from './profiler-graph.ts';

interface ToolState {
  connected: boolean;
  frames: number;
  generation: number;
  latencies: { property: string; ms: number; compileMs: number }[];
  log: string[];
  lastError: string | undefined;
  dropped: { log: number; profiler: number };
}

const state: ToolState = { connected: false, frames: 0, generation: 0, latencies: [], log: [], lastError: undefined, dropped: { log: 0, profiler: 0 } };
const key = new URLSearchParams(location.hash.slice(1)).get('key') ?? '';
const view = document.querySelector<HTMLCanvasElement>('#view')!;
const context = view.getContext('2d', { willReadFrequently: true })!;
const status = document.querySelector<HTMLSpanElement>('#status')!;
const ssao = document.querySelector<HTMLInputElement>('#ssao')!;
const logBox = document.querySelector<HTMLDivElement>('#log')!;
const unitList = document.querySelector<HTMLUListElement>('#units')!;
const editor = document.querySelector<HTMLFormElement>('#editor')!;
const profiler = new ProfilerGraph(document.querySelector<HTMLCanvasElement>('#profiler')!);
const memory = new MemoryPanel(document.querySelector<HTMLElement>('#memory')!);

async function api<T>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, { method: body === undefined ? 'GET' : 'POST', headers: { 'x-tool-key': key, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const data = (await response.json()) as T & { error?: string };
  if (!response.ok) throw new Error(data.error ?? `HTTP ${response.status}`);
  return data;
}

/** Lines the log view keeps: older ones go, so a chatty engine cannot grow the page without bound. */
const MAX_LOG_LINES = 500;

function log(level: string, text: string): void {
  state.log.push(`${level}: ${text}`);
  if (state.log.length > MAX_LOG_LINES) state.log.splice(0, state.log.length - MAX_LOG_LINES);
  const line = document.createElement('div');
  line.className = level;
  line.textContent = `${new Date().toLocaleTimeString()} ${level.padEnd(7)} ${text}`;
  logBox.append(line);
  while (logBox.childElementCount > MAX_LOG_LINES) logBox.firstElementChild!.remove();
  logBox.scrollTop = logBox.scrollHeight;
}

const config = await api<{ engineUrl: string; engineToken: string; level: string; editable: string[] }>('/api/config');
let units: Unit[] = (await api<{ units: Unit[] }>('/api/units')).units;
let selected: string | undefined;
const socket = new WebSocket(config.engineUrl, ['cuttle.v1', `token.${config.engineToken}`]);
socket.binaryType = 'arraybuffer';
const send = (message: object): void => {
  if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
};

// Request ids for `reload` and `flow` messages: edits and the Flow view share them.
let nextRequest = 1;
const flowPanel = new FlowPanel(document.querySelector<HTMLElement>('#flow')!, { send, api, log, nextId: () => nextRequest++ });

// Camera: orbit by dragging, zoom with the wheel.
const orbit = { yaw: 0, pitch: 0.5, distance: 30, target: [0, 0, 2] as [number, number, number] };
function sendCamera(): void {
  const [tx, ty, tz] = orbit.target;
  const c = Math.cos(orbit.pitch);
  send({ type: 'camera', position: [tx + Math.sin(orbit.yaw) * c * orbit.distance, ty + Math.sin(orbit.pitch) * orbit.distance, tz + Math.cos(orbit.yaw) * c * orbit.distance], target: orbit.target });
}
let drag: { x: number; y: number } | undefined;
view.addEventListener('pointerdown', (e) => (drag = { x: e.clientX, y: e.clientY }));
window.addEventListener('pointerup', () => (drag = undefined));
window.addEventListener('pointermove', (e) => {
  if (!drag) return;
  orbit.yaw -= (e.clientX - drag.x) * 0.01;
  orbit.pitch = Math.min(1.5, Math.max(0.05, orbit.pitch + (e.clientY - drag.y) * 0.01));
  drag = { x: e.clientX, y: e.clientY };
  sendCamera();
});
view.addEventListener('wheel', (e) => {
  e.preventDefault();
  orbit.distance = Math.min(120, Math.max(3, orbit.distance * (e.deltaY > 0 ? 1.1 : 0.9)));
  sendCamera();
});

ssao.addEventListener('change', () => {
  send({ type: 'frame', ssao: ssao.checked });
});

// Edits waiting for their first frame.
const pending = new Map<number, { t0: number; property: string; compileMs: number; generation?: number }>();

socket.addEventListener('open', () => {
  state.connected = true;
  status.textContent = `connected to ${config.engineUrl}`;
  send({ type: 'profiler', enable: true });
  send({ type: 'memory', subscribe: true });
  send({ type: 'frame', width: view.width, height: view.height, fps: 30, quality: 75 });
  flowPanel.connected();
});
socket.addEventListener('close', (e) => {
  state.connected = false;
  status.textContent = `disconnected (${e.code}) from the engine`;
});

let drawing = Promise.resolve();
socket.addEventListener('message', (event: MessageEvent<ArrayBuffer | string>) => {
  if (typeof event.data !== 'string') {
    const bytes = event.data;
    const header = new DataView(bytes, 0, 20);
    const seq = header.getUint32(4, true);
    const generation = header.getUint32(16, true);
    send({ type: 'frame', ack: seq });
    drawing = drawing.then(async () => {
      const image = await createImageBitmap(new Blob([bytes.slice(20)], { type: 'image/jpeg' }));
      context.drawImage(image, 0, 0, view.width, view.height);
      image.close();
      state.frames++;
      state.generation = generation;
      const now = performance.now();
      for (const [id, edit] of pending) {
        if (edit.generation !== undefined && generation >= edit.generation) {
          const ms = now - edit.t0;
          state.latencies.push({ property: edit.property, ms, compileMs: edit.compileMs });
          log('info', `edit to frame: ${ms.toFixed(0)} ms (${edit.property}; compile ${edit.compileMs.toFixed(0)} ms)`);
          pending.delete(id);
        }
      }
      status.textContent = `frame ${seq} · generation ${generation} · ${state.latencies.length > 0 ? `last edit to frame ${state.latencies.at(-1)!.ms.toFixed(0)} ms` : 'no edits yet'}`;
    });
    return;
  }
  const message = JSON.parse(event.data) as Record<string, unknown>;
  if (flowPanel.handle(message)) return;
  if (memory.update(message)) return;
  switch (message.type) {
    case 'hello':
      log('info', `engine level ${String(message.level)}, ${(message.units as unknown[]).length} units`);
      orbit.target = [0, 0, 2];
      sendCamera();
      break;
    case 'message':
      log(String(message.level), `${String(message.system)}: ${String(message.message)}`);
      break;
    case 'profiler':
      profiler.add(message as unknown as ProfilerSample);
      break;
    case 'dropped':
      // The engine drops log lines and profiler samples for a tool that falls behind; these are its totals.
      state.dropped = { log: Number(message.log), profiler: Number(message.profiler) };
      log('warning', `the engine dropped ${state.dropped.log} log lines and ${state.dropped.profiler} profiler samples while this page fell behind`);
      break;
    case 'reloaded': {
      const edit = pending.get(message.id as number);
      if (edit && message.ok === true) edit.generation = message.generation as number;
      if (message.ok !== true) {
        state.lastError = String(message.error);
        log('error', `reload failed: ${String(message.error)}`);
        pending.delete(message.id as number);
      }
      break;
    }
    case 'error':
      state.lastError = String(message.problem);
      log('error', `engine: ${String(message.problem)}`);
      break;
  }
});

function renderUnits(): void {
  unitList.replaceChildren(
    ...units.map((u) => {
      const li = document.createElement('li');
      li.textContent = `${u.id}  (${u.unit.split('/').at(-1) ?? u.unit})`;
      li.dataset.id = u.id;
      if (u.id === selected) li.className = 'selected';
      li.addEventListener('click', () => { select(u.id); });
      return li;
    }),
  );
}

function field(label: string, inputs: HTMLInputElement[]): void {
  const name = document.createElement('label');
  name.textContent = label;
  editor.append(name, ...inputs);
}

function select(id: string): void {
  selected = id;
  renderUnits();
  const unit = units.find((u) => u.id === id)!;
  editor.replaceChildren();
  const numbers = (property: 'position' | 'scale', values: number[]): HTMLInputElement[] =>
    values.map((v, i) => {
      const input = document.createElement('input');
      input.type = 'number';
      input.step = '0.1';
      input.value = String(v);
      input.name = `${property}.${i}`;
      return input;
    });
  field('position', numbers('position', unit.position ?? [0, 0, 0]));
  field('scale', numbers('scale', unit.scale ?? [1, 1, 1]));
  const material = document.createElement('input');
  material.name = 'material';
  material.className = 'wide';
  material.placeholder = "the unit's own";
  material.value = unit.material ?? '';
  field('material', [material]);
  const apply = document.createElement('button');
  apply.textContent = 'Apply';
  editor.append(apply);
  editor.onsubmit = (e) => {
    e.preventDefault();
    const read = (property: string, n: number): number[] => Array.from({ length: n }, (_, i) => Number((editor.elements.namedItem(`${property}.${i}`) as HTMLInputElement).value));
    const position = read('position', 3), scale = read('scale', 3);
    const newMaterial = material.value.trim() === '' ? null : material.value.trim();
    const changes: [string, unknown][] = [];
    if (JSON.stringify(position) !== JSON.stringify(unit.position ?? [0, 0, 0])) changes.push(['position', position]);
    if (JSON.stringify(scale) !== JSON.stringify(unit.scale ?? [1, 1, 1])) changes.push(['scale', scale]);
    if ((unit.material ?? null) !== newMaterial) changes.push(['material', newMaterial]);
    void (async () => {
      for (const [property, value] of changes) await edit(id, property, value);
    })();
  };
}

/** Writes one property through the tool server (SJSON + compile), then reloads and times it. */
async function edit(unit: string, property: string, value: unknown): Promise<void> {
  const t0 = performance.now();
  try {
    const result = await api<{ compiled: string[]; compileMs: number }>('/api/edit', { unit, property, value });
    units = (await api<{ units: Unit[] }>('/api/units')).units;
    renderUnits();
    if (result.compiled.length === 0) return;
    const id = nextRequest++;
    pending.set(id, { t0, property: `${unit}.${property}`, compileMs: result.compileMs });
    send({ type: 'reload', id, resources: result.compiled });
  } catch (error) {
    state.lastError = error instanceof Error ? error.message : String(error);
    log('error', `edit failed: ${state.lastError}`);
  }
}

/** Mean colour of the frame on screen (for tests and for people who like numbers). */
function meanColor(): [number, number, number] {
  const { data } = context.getImageData(0, 0, view.width, view.height);
  const sum = [0, 0, 0];
  for (let i = 0; i < data.length; i += 4) for (let c = 0; c < 3; c++) sum[c]! += data[i + c]!;
  const n = data.length / 4;
  return [sum[0]! / n, sum[1]! / n, sum[2]! / n];
}

renderUnits();
Object.assign(window, { cuttleTool: { state, edit, meanColor, select, flow: flowPanel, memory } });
