// The manifest's shape, apart from reading it, so that its checker and its reader do not import each other.

export interface ManifestEntry {
  type: string;
  name: string;
  /** Output file, relative to the output folder. */
  file: string;
  /** Content hash of the output. */
  hash: string;
  size: number;
  /** Every file the compile read (project-relative or absolute) with its content hash. */
  inputs: Record<string, string>;
  /**
   * How the rest of the project told the compiler to build it (a texture's `usage`, learned from
   * the materials that name it); a change rebuilds it though its own files did not change.
   */
  settings?: Record<string, string>;
}

export interface Manifest {
  /** The compiler (and runtime format) version that wrote this data. */
  compiler: string;
  /** Hash of every source file at the last compile. */
  sources: Record<string, string>;
  /** Compiled resources by source path. */
  resources: Record<string, ManifestEntry>;
  /** Sources whose last compile failed (retried next time; their previous output is kept). */
  failed: string[];
}
