// What a compile may read besides its sources: other files of the project, found in the scanned
// project (so a relative path never leaves it), and absolute paths inside a folder named with
// --font-dir (checked after following symbolic links). Anything else is refused without being
// opened, so a source cannot read files of the machine, nor get their bytes into an error.
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, posix, resolve } from 'node:path';
import { EngineError } from '../errors.ts';
import { isInsideFolder } from './inside-folder.ts';

/** The bytes of a file, or why there are none. */
export type InputRead = Uint8Array | 'missing' | 'refused';

/** The project's files by project path (a Map, or a worker's view of the shared project). */
export interface SourceFiles {
  get(path: string): Uint8Array | undefined;
}

export class InputFiles {
  /** Each --font-dir as named and with its links followed. */
  readonly #fontDirs: string[];

  /** `files`: the project's files by project path; `fontDirs`: folders absolute paths may read. */
  constructor(
    readonly files: SourceFiles,
    fontDirs: readonly string[],
  ) {
    this.#fontDirs = fontDirs.flatMap((dir) => {
      try {
        const real = realpathSync(dir);
        if (statSync(real).isDirectory()) return [resolve(dir), real];
      } catch {
        // reported below
      }
      throw new EngineError(`--font-dir ${dir} is not a folder; name an existing folder of fonts (e.g. --font-dir /usr/share/fonts).`);
    });
  }

  /** `name`: a project path (`fonts/x.ttf`) or an absolute path. */
  read(name: string): InputRead {
    if (isAbsolute(name)) return this.#readExternal(name);
    const path = posix.normalize(name);
    if (path === '..' || path.startsWith('../')) return 'refused';
    return this.files.get(path) ?? 'missing';
  }

  #insideFontDir(path: string): boolean {
    return this.#fontDirs.some((dir) => isInsideFolder(dir, path));
  }

  #readExternal(name: string): InputRead {
    let real: string;
    try {
      real = realpathSync(name);
    } catch {
      // Saying "missing" only inside a font folder tells nothing about the rest of the machine.
      return this.#insideFontDir(resolve(name)) ? 'missing' : 'refused';
    }
    if (!this.#insideFontDir(real)) return 'refused';
    try {
      return statSync(real).isFile() ? readFileSync(real) : 'refused';
    } catch {
      return 'missing';
    }
  }
}
