// The public API report: what each entry of the package (".", "./zod", "./adapters") exports,
// with every signature, as api-extractor renders it into api/*.api.md. `npm run lint` runs this
// and fails when the declarations no longer match the checked-in reports, so any change to the
// public surface is a visible diff in review (and an entry in CHANGELOG.md).
// Use: node tools/api-report.mjs            compare (exits 1 on a difference, printing it)
//      node tools/api-report.mjs --update   rewrite api/*.api.md from the sources
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Each package entry: its declaration file in the build, and its report's name. */
const ENTRIES = [
  { entry: '.', dts: 'index.d.ts', report: 'receiptcheck' },
  { entry: './zod', dts: 'zod.d.ts', report: 'receiptcheck-zod' },
  { entry: './adapters', dts: 'adapters.d.ts', report: 'receiptcheck-adapters' },
];

const update = process.argv.includes('--update');
// Inside the project (out of git, and not under node_modules, which api-extractor reads as
// other packages), so the reports name declaration files by paths relative to it.
const temp = join(ROOT, '.scratch', 'api-report');
rmSync(temp, { recursive: true, force: true });
mkdirSync(temp, { recursive: true });
try {
  // The declarations exactly as `npm run build` publishes them, into a folder of our own.
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const declarations = join(temp, 'dist');
  execFileSync(
    process.execPath,
    [tsc, '-p', 'tsconfig.build.json', '--emitDeclarationOnly', '--outDir', declarations],
    { cwd: ROOT, stdio: 'inherit' },
  );
  const changed = ENTRIES.filter((e) => !extract(e, declarations, join(temp, 'reports')));
  if (changed.length > 0) {
    for (const { entry, report } of changed) {
      const file = `api/${report}.api.md`;
      console.error(`the public API of receiptcheck${entry.slice(1)} differs from ${file}:`);
      const fresh = join(temp, 'reports', `${report}.api.md`);
      if (existsSync(join(ROOT, file)) && existsSync(fresh)) {
        try {
          execFileSync('git', ['diff', '--no-index', '--no-color', join(ROOT, file), fresh], {
            stdio: 'inherit',
          });
        } catch {
          // git diff exits 1 when the files differ: the diff is what we wanted printed.
        }
      }
    }
    console.error(
      'If the change is intended: `npm run api:update`, commit api/, and say what changed in CHANGELOG.md.',
    );
    process.exitCode = 1;
  } else {
    console.log(
      `public API ${update ? 'reports written' : 'matches'} api/*.api.md (${ENTRIES.map((e) => e.entry).join(', ')})`,
    );
  }
} finally {
  rmSync(temp, { recursive: true, force: true });
}

/** Runs api-extractor on one entry; true when its report matches (or was rewritten). */
function extract({ dts, report }, declarations, reportTemp) {
  const config = ExtractorConfig.prepare({
    configObject: {
      projectFolder: ROOT,
      mainEntryPointFilePath: join(declarations, dts),
      compiler: { tsconfigFilePath: join(ROOT, 'tsconfig.json') },
      apiReport: {
        enabled: true,
        reportFileName: `${report}.api.md`,
        reportFolder: join(ROOT, 'api'),
        reportTempFolder: reportTemp,
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        // Release tags (@public, @beta) are not used: the barrel itself says what is public.
        extractorMessageReporting: {
          'ae-missing-release-tag': { logLevel: 'none' },
          // A type a public signature names but the entry does not export: listed in the report,
          // so leaving it unexported is a visible choice too.
          'ae-forgotten-export': { logLevel: 'none', addToApiReportFile: true },
        },
        tsdocMessageReporting: { default: { logLevel: 'none' } },
      },
    },
    configObjectFullPath: join(ROOT, 'api', 'api-extractor.json'),
    packageJsonFullPath: join(ROOT, 'package.json'),
  });
  const result = Extractor.invoke(config, {
    localBuild: update,
    showVerboseMessages: false,
    // Its bundled TypeScript reads the declarations our compiler wrote; saying so each run is noise.
    messageCallback: (message) => {
      if (message.messageId === 'console-preamble') message.handled = true;
    },
  });
  if (result.errorCount > 0) {
    throw new Error(`api-extractor reported ${result.errorCount} error(s) for ${dts}`);
  }
  return update || !result.apiReportChanged;
}
