// Runs in the page: moves a camera along a scripted pan-and-zoom path for a while and records
// the time between animation frames (what a user sees). The same path for every drawing layer;
// each page supplies `show(centreX, centreY, zoom)` that draws one frame at that camera.
export interface FrameStats {
  frames: number;
  meanMs: number;
  p95Ms: number;
  maxMs: number;
  fps: number;
  /** Frames slower than 33.3 ms (under 30 fps). */
  slow: number;
  /** Mean number of nodes on screen, when the page can tell. */
  onScreen?: number;
}

export type Scenario = 'working' | 'overview';

/** Graph-space bounds the path travels over. */
export interface PathBounds {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The camera at time t (seconds) for a scenario: 'working' pans across the graph zooming 0.5-1.0; 'overview' shows all of it, zooming 0.8-1.2x the fit. */
export function cameraAt(scenario: Scenario, t: number, bounds: PathBounds, screenW: number, screenH: number): { cx: number; cy: number; zoom: number } {
  const fit = Math.min(screenW / bounds.width, screenH / bounds.height);
  if (scenario === 'overview') {
    return { cx: bounds.x + bounds.width / 2 + Math.sin(t * 2) * bounds.width * 0.05, cy: bounds.y + bounds.height / 2 + Math.cos(t * 1.5) * bounds.height * 0.05, zoom: fit * (1 + 0.2 * Math.sin(t * 3)) };
  }
  // The model's layout puts every cluster's sources in the first column, so the graph is a tall
  // strip that is full only in its top third: the camera stays there.
  const u = (Math.sin(t * 0.6) + 1) / 2;
  const v = (Math.sin(t * 0.23) + 1) / 2;
  return { cx: bounds.x + bounds.width * (0.1 + 0.8 * u), cy: bounds.y + bounds.height * (0.03 + 0.27 * v), zoom: 0.75 + 0.25 * Math.sin(t * 2.2) };
}

export function summarise(intervals: number[]): FrameStats {
  const sorted = intervals.slice().sort((a, b) => a - b);
  const mean = intervals.reduce((s, x) => s + x, 0) / Math.max(1, intervals.length);
  return {
    frames: intervals.length,
    meanMs: mean,
    p95Ms: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? 0,
    maxMs: sorted[sorted.length - 1] ?? 0,
    fps: 1000 / mean,
    slow: intervals.filter((x) => x > 1000 / 30).length,
  };
}

/** Animates for `warmupMs` then measures for `durationMs`; resolves with the frame statistics. */
export function runPath(show: (cx: number, cy: number, zoom: number) => void, scenario: Scenario, bounds: PathBounds, screenW: number, screenH: number, durationMs = 4000, warmupMs = 800, onScreen?: () => number): Promise<FrameStats> {
  return new Promise((resolve) => {
    const intervals: number[] = [];
    let shown = 0;
    let start = -1;
    let last = -1;
    const step = (now: number): void => {
      if (start < 0) start = now;
      const elapsed = now - start;
      if (elapsed > warmupMs && last >= 0) {
        intervals.push(now - last);
        if (onScreen !== undefined) shown += onScreen();
      }
      last = now;
      if (elapsed > warmupMs + durationMs) {
        resolve({ ...summarise(intervals), ...(onScreen === undefined ? {} : { onScreen: shown / Math.max(1, intervals.length) }) });
        return;
      }
      const c = cameraAt(scenario, elapsed / 1000, bounds, screenW, screenH);
      show(c.cx, c.cy, c.zoom);
      requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  });
}
