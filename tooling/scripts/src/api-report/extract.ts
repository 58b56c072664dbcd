// Makes the API report text of each entry with api-extractor, in a scratch folder: the
// committed reports are never touched here (check.ts compares and writes them). One
// TypeScript program serves every entry, so the libs and shared .d.ts files parse once.
// With `docs` (pnpm docs:api) each entry also gets its doc model (.api.json), and the doc
// comment messages (ae-undocumented, ae-unresolved-link, tsdoc-*) come back instead of being
// silenced; without it the reports are made exactly as `pnpm api:check` always made them.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompilerState, Extractor, ExtractorConfig, ExtractorLogLevel, ExtractorMessageCategory } from '@microsoft/api-extractor';
import type { ExtractorMessage, IConfigFile } from '@microsoft/api-extractor';
import type { ApiEntry } from './entries.ts';

/** An entry's freshly made report, and what api-extractor could not settle on its own. */
export interface MadeReport {
  entry: ApiEntry;
  /** The report, LF line endings. */
  text: string;
  /** Errors (the report may be incomplete) and compiler warnings, formatted one per line. */
  problems: string[];
  /** With `docs`: the entry's doc model (.api.json), in the docs' model folder. */
  docModelPath?: string;
  /** With `docs`: the doc comment messages (ae-undocumented, ae-unresolved-link, tsdoc-*), as api-extractor gave them. */
  docMessages: ExtractorMessage[];
}

/** What `makeReports` makes besides the reports, for the API reference (pnpm docs:api). */
export interface DocModelOptions {
  /** The folder each entry's doc model is written to, as `<n>.api.json` (n: the entry's index). */
  modelFolder: string;
}

/** The message ids that say a doc comment is missing or wrong: what pnpm docs:api fails on. */
export function isDocMessage(message: ExtractorMessage): boolean {
  return message.messageId === 'ae-undocumented' || message.messageId === 'ae-unresolved-link' || message.category === ExtractorMessageCategory.TSDoc;
}

const requireFromHere = createRequire(import.meta.url);

// The packages' .d.ts files rely on the WebGPU and Node globals, as their tsconfig's `types`
// do. They are given as absolute files so a package outside the workspace (the test's
// fixture) compiles the same way.
const globalTypes = [requireFromHere.resolve('@webgpu/types/dist/index.d.ts'), requireFromHere.resolve('@types/node/index.d.ts')];

function configFile(entry: ApiEntry, scratch: string, docModelPath: string | undefined): IConfigFile {
  const docs = docModelPath !== undefined;
  return {
    projectFolder: entry.packageDir,
    mainEntryPointFilePath: entry.dtsPath,
    bundledPackages: [],
    newlineKind: 'lf',
    compiler: {
      // `files` keeps TypeScript from including the package's src/; only the build is analysed.
      overrideTsconfig: {
        compilerOptions: {
          target: 'ES2022',
          lib: ['ES2022', 'DOM', 'DOM.Iterable'],
          module: 'ESNext',
          moduleResolution: 'bundler',
          types: [],
          strict: true,
          skipLibCheck: true,
          noEmit: true,
        },
        files: [entry.dtsPath, ...globalTypes],
      },
    },
    apiReport: {
      enabled: true,
      reportFileName: entry.entry,
      // Both in the scratch folder: api-extractor writes its fresh report to reportTempFolder
      // and finds nothing in reportFolder to compare or overwrite.
      reportFolder: join(scratch, 'expected'),
      reportTempFolder: join(scratch, 'made'),
    },
    // Reports only (and for docs:api the doc model .api.json): no rollup .d.ts, no tsdoc-metadata.json.
    docModel: docs ? { enabled: true, apiJsonFilePath: docModelPath } : { enabled: false },
    dtsRollup: { enabled: false },
    tsdocMetadata: { enabled: false },
    messages: {
      compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Warning } },
      extractorMessageReporting: {
        default: { logLevel: ExtractorLogLevel.Warning },
        // Cuttle does not use release tags (@public, @beta, ...): everything exported is public.
        'ae-missing-release-tag': { logLevel: ExtractorLogLevel.None },
        // api-extractor's defaults: these go into the report, where a reviewer sees them.
        'ae-forgotten-export': { logLevel: ExtractorLogLevel.Warning, addToApiReportFile: true },
        'ae-incompatible-release-tags': { logLevel: ExtractorLogLevel.Warning, addToApiReportFile: true },
        'ae-internal-missing-underscore': { logLevel: ExtractorLogLevel.Warning, addToApiReportFile: true },
        'ae-internal-mixed-release-tag': { logLevel: ExtractorLogLevel.Warning, addToApiReportFile: true },
        'ae-unresolved-inheritdoc-reference': { logLevel: ExtractorLogLevel.Warning, addToApiReportFile: true },
        'ae-unresolved-inheritdoc-base': { logLevel: ExtractorLogLevel.Warning, addToApiReportFile: true },
        // pnpm docs:api fails on it (and on ae-unresolved-link); the API reports leave it out (a
        // report marks an undocumented item `(undocumented)` either way).
        'ae-undocumented': { logLevel: docs ? ExtractorLogLevel.Warning : ExtractorLogLevel.None },
        'ae-wrong-input-file-type': { logLevel: ExtractorLogLevel.Error },
      },
      // The API reports leave doc comment syntax to pnpm docs:api, which holds it to TSDoc.
      tsdocMessageReporting: { default: { logLevel: docs ? ExtractorLogLevel.Warning : ExtractorLogLevel.None } },
    },
  };
}

function prepare(entry: ApiEntry, scratch: string, docModelPath: string | undefined): ExtractorConfig {
  return ExtractorConfig.prepare({
    configObject: configFile(entry, scratch, docModelPath),
    configObjectFullPath: undefined,
    packageJsonFullPath: join(entry.packageDir, 'package.json'),
  });
}

/**
 * Keeps errors and compiler warnings (a type that does not resolve makes a wrong report) and
 * silences the rest: api-extractor's own notes on the report file, and the ae-* messages,
 * which the report already carries.
 */
function collect(problems: string[], packageDir: string, docMessages: ExtractorMessage[] | undefined): (message: ExtractorMessage) => void {
  return (message) => {
    message.handled = true;
    if (docMessages !== undefined && isDocMessage(message)) {
      docMessages.push(message);
      return;
    }
    const isError = message.logLevel === ExtractorLogLevel.Error;
    const isCompilerWarning = message.category === ExtractorMessageCategory.Compiler && message.logLevel === ExtractorLogLevel.Warning;
    if (isError || isCompilerWarning) problems.push(message.formatMessageWithLocation(packageDir));
  };
}

/**
 * Makes the report of every entry, and with `docs` its doc model; throws when an entry's .d.ts
 * is missing (not built).
 */
export function makeReports(entries: readonly ApiEntry[], docs?: DocModelOptions): MadeReport[] {
  if (entries.length === 0) return [];
  const scratchRoot = mkdtempSync(join(tmpdir(), 'cuttle-api-report-'));
  try {
    const modelPath = (i: number): string | undefined => (docs === undefined ? undefined : join(docs.modelFolder, `${i}.api.json`));
    const configs = entries.map((entry, i) => prepare(entry, join(scratchRoot, String(i)), modelPath(i)));
    const compilerState = CompilerState.create(configs[0]!, { additionalEntryPoints: entries.map((entry) => entry.dtsPath) });
    return entries.map((entry, i) => {
      const config = configs[i]!;
      const problems: string[] = [];
      const docMessages: ExtractorMessage[] = [];
      Extractor.invoke(config, { localBuild: false, compilerState, messageCallback: collect(problems, entry.packageDir, docs && docMessages) });
      const text = readFileSync(join(config.reportTempFolder, config.reportConfigs[0]!.fileName), 'utf8');
      const docModelPath = modelPath(i);
      return { entry, text: text.replaceAll('\r\n', '\n'), problems, docMessages, ...(docModelPath === undefined ? {} : { docModelPath }) };
    });
  } finally {
    rmSync(scratchRoot, { recursive: true, force: true });
  }
}
