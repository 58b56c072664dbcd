// `--watch`: recompile when a source file is saved. Saves arrive as bursts of events (editors
// write temp files and rename), so changes are gathered for a short quiet period first, and a
// compile never overlaps another: changes during one trigger one more after it. The compiles
// share a ProjectCache, told which paths the watcher saw change, so the next compile reads and
// parses only those (a one-file save of a 4,000-file project costs tens of milliseconds).
import { watch, type FSWatcher } from 'node:fs';
import { compileProject, type CompileOptions, type CompileReport } from './compile-project.ts';
import { ProjectCache } from './project-scan.ts';

export interface Watcher {
  close(): void;
}

export function watchProject(source: string, out: string, options: CompileOptions & { quietMs?: number; onCompiled: (report: CompileReport) => void; onError: (error: unknown) => void }): Watcher {
  const quietMs = options.quietMs ?? 25;
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;
  const cache = options.cache ?? new ProjectCache();
  const run = async (): Promise<void> => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      // Textures saved while watching are written as drafts (milliseconds, not seconds of Basis
      // encoding); the next compile without --watch compresses them.
      options.onCompiled(await compileProject(source, out, { ...options, cache, textureDrafts: options.textureDrafts ?? true }));
    } catch (error) {
      options.onError(error);
    } finally {
      running = false;
      if (again) {
        again = false;
        void run();
      }
    }
  };
  const watcher: FSWatcher = watch(source, { recursive: true }, (_event, file) => {
    if (file?.split(/[\\/]/).some((part) => part.startsWith('.'))) return;
    // Without a name the event could be anything: look at every file next time.
    if (file) cache.touched(file);
    else cache.touchedAll();
    clearTimeout(timer);
    timer = setTimeout(() => void run(), quietMs);
  });
  return {
    close() {
      clearTimeout(timer);
      watcher.close();
    },
  };
}
