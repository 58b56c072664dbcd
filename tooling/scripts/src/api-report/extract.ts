// Makes the API report text of each entry with api-extractor, in a scratch folder: the
// committed reports are never touched here (check.ts compares and writes them). One
// TypeScript program serves every entry, so the libs and shared .d.ts files parse once.
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
}

const requireFromHere = createRequire(import.meta.url);

// The packages' .d.ts files rely on the WebGPU and Node globals, as their tsconfig's `types`
// do. They are given as absolute files so a package outside the workspace (the test's
// fixture) compiles the same way.
const globalTypes = [requireFromHere.resolve('@webgpu/types/dist/index.d.ts'), requireFromHere.resolve('@types/node/index.d.ts')];

function configFile(entry: ApiEntry, scratch: string): IConfigFile {
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
    // Reports only: no rollup .d.ts, no doc model (.api.json), no tsdoc-metadata.json.
    docModel: { enabled: false },
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
        'ae-undocumented': { logLevel: ExtractorLogLevel.None },
        'ae-wrong-input-file-type': { logLevel: ExtractorLogLevel.Error },
      },
      // Doc comments here are plain JSDoc, not TSDoc; its syntax warnings would be noise.
      tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
    },
  };
}

function prepare(entry: ApiEntry, scratch: string): ExtractorConfig {
  return ExtractorConfig.prepare({
    configObject: configFile(entry, scratch),
    configObjectFullPath: undefined,
    packageJsonFullPath: join(entry.packageDir, 'package.json'),
  });
}

/**
 * Keeps errors and compiler warnings (a type that does not resolve makes a wrong report) and
 * silences the rest: api-extractor's own notes on the report file, and the ae-* messages,
 * which the report already carries.
 */
function collect(problems: string[], packageDir: string): (message: ExtractorMessage) => void {
  return (message) => {
    message.handled = true;
    const isError = message.logLevel === ExtractorLogLevel.Error;
    const isCompilerWarning = message.category === ExtractorMessageCategory.Compiler && message.logLevel === ExtractorLogLevel.Warning;
    if (isError || isCompilerWarning) problems.push(message.formatMessageWithLocation(packageDir));
  };
}

/** Makes the report of every entry; throws when an entry's .d.ts is missing (not built). */
export function makeReports(entries: readonly ApiEntry[]): MadeReport[] {
  if (entries.length === 0) return [];
  const scratchRoot = mkdtempSync(join(tmpdir(), 'cuttle-api-report-'));
  try {
    const configs = entries.map((entry, i) => prepare(entry, join(scratchRoot, String(i))));
    const compilerState = CompilerState.create(configs[0]!, { additionalEntryPoints: entries.map((entry) => entry.dtsPath) });
    return entries.map((entry, i) => {
      const config = configs[i]!;
      const problems: string[] = [];
      Extractor.invoke(config, { localBuild: false, compilerState, messageCallback: collect(problems, entry.packageDir) });
      const text = readFileSync(join(config.reportTempFolder, config.reportConfigs[0]!.fileName), 'utf8');
      return { entry, text: text.replaceAll('\r\n', '\n'), problems };
    });
  } finally {
    rmSync(scratchRoot, { recursive: true, force: true });
  }
}
