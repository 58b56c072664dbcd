// The Node layer: files on disk, the CLI, the file-based central store, the dependency checker
// over a directory and the static-hash checker over source files.
export { formatDocument, formatOf, readDocument, readFileDocument, writeDocument, type DocumentFormat, type FileDocument } from './files.ts';
export { USAGE, type CliArgs, type CliCommand, type CliIo } from './cli-main.ts';
export { runCli } from './cli-run.ts';
export { checkStaticHashFiles, SOURCE_EXTENSIONS } from './hash-check.ts';
export { FileStore } from './file-store.ts';
export { DEPS_CONFIG, loadProject, readDependencyOptions, readProject, writeChanges } from './project-files.ts';
