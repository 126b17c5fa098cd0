/**
 * Test-only: the TypeScript examples the README and docs tell users to copy, each as the files a
 * user's project holds, importing this checkout where they import `receiptcheck`; and one
 * type-check of them all. The tests that run each example build it here; the type-check is one
 * `tsc` program over every example (`doc-examples.test.ts`), since each program compiles all of
 * `src/` the examples import, which took a minute of CPU per example when each had its own.
 */
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { docBlock, ROOT } from './doc-blocks.ts';
import { localImports, makeProject } from './user-project.ts';

/** The plugin guide's handler, which docs/plugins.md's `my-handler.ts` wraps. */
const HANDLER_SOURCE = join(ROOT, 'testing', 'readme-example', 'src', 'set-interval.ts');

/** An edit of an example's text, to make a broken variant; the identity by default. */
type Edit = (text: string) => string;
const same: Edit = (t) => t;

/**
 * docs/plugins.md's `my-handler.ts` beside the handler it wraps (`src/set-interval.ts`); `edit`
 * changes the plugin.
 */
export function pluginExampleFiles(edit: Edit = same): Record<string, string> {
  const plugin = localImports(docBlock('my-handler.ts').text, "docs/plugins.md's my-handler.ts");
  return {
    'my-handler.ts': edit(plugin),
    'src/set-interval.ts': readFileSync(HANDLER_SOURCE, 'utf8'),
  };
}

/** The README's own operation: its spec and its plugin; `edit` changes the plugin. */
export function ownOperationFiles(edit: Edit = same): Record<string, string> {
  const spec = 'my-operation.ts';
  const plugin = 'my-tool-handler.ts';
  return {
    [spec]: localImports(docBlock(spec).text, `the README's ${spec}`),
    [plugin]: edit(localImports(docBlock(plugin).text, `the README's ${plugin}`)),
  };
}

/** docs/modes-and-engines.md's PostgreSQL plugin; `edit` changes it. */
export function pgPluginFiles(edit: Edit = same): Record<string, string> {
  const what = "docs/modes-and-engines.md's my-pg-handler.ts";
  return { 'my-pg-handler.ts': edit(localImports(docBlock('my-pg-handler.ts').text, what)) };
}

/**
 * docs/libraries.md's adapter for express-idempotency, its `receiptcheck` and
 * `receiptcheck/adapters` imports pointing at this checkout. It imports the library by name: its
 * project needs `linkDependencies`.
 */
export function libraryAdapterFiles(): Record<string, string> {
  const name = 'my-library-adapter.ts';
  const text = docBlock(name).text;
  const local = text
    .replaceAll("from 'receiptcheck/adapters'", `from '${join(ROOT, 'src', 'adapters.ts')}'`)
    .replaceAll("from 'receiptcheck'", `from '${join(ROOT, 'src', 'index.ts')}'`);
  if (local === text) throw new Error(`docs/libraries.md's ${name} no longer imports receiptcheck`);
  return { [name]: local };
}

/** This checkout's dependencies in `dir`, standing for what a user's install would provide. */
export function linkDependencies(dir: string): void {
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
}

/** Every example to type-check: a folder name, what it is, its files. */
export const DOC_EXAMPLES: readonly {
  readonly folder: string;
  readonly name: string;
  readonly files: () => Record<string, string>;
}[] = [
  { folder: 'plugin', name: "docs/plugins.md's my-handler.ts", files: () => pluginExampleFiles() },
  { folder: 'own-operation', name: "the README's own operation", files: () => ownOperationFiles() },
  {
    folder: 'pg-plugin',
    name: "docs/modes-and-engines.md's my-pg-handler.ts",
    files: () => pgPluginFiles(),
  },
  {
    folder: 'library-adapter',
    name: "docs/libraries.md's my-library-adapter.ts",
    files: () => libraryAdapterFiles(),
  },
];

/** One `tsc` run over every example: its process, and its errors by example folder. */
export interface ExamplesTypeCheck {
  readonly tsc: SpawnSyncReturns<string>;
  /** tsc's error lines about each example's own files, by `folder`. */
  readonly errorsOf: (folder: string) => string[];
}

/**
 * Writes each example into a project of its own under `dir` (a folder with its package.json, as
 * the tests that run it make it) and type-checks all of them in one `tsc` program under the
 * repository's compiler settings, with this checkout's dependencies standing for what an install
 * would provide. Each example is a module, so sharing a program changes no example's types.
 */
export function typeCheckExamples(dir: string): ExamplesTypeCheck {
  const files: string[] = [];
  for (const { folder, files: of } of DOC_EXAMPLES) {
    const project = of();
    makeProject(join(dir, folder), project);
    for (const f of Object.keys(project)) if (f.endsWith('.ts')) files.push(`${folder}/${f}`);
  }
  linkDependencies(dir);
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ extends: join(ROOT, 'tsconfig.json'), include: [], files }),
  );
  const bin = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  // From `dir`, tsc names an example's file `folder/file.ts(line,col): error …`.
  const tsc = spawnSync(process.execPath, [bin, '-p', '.', '--pretty', 'false'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 300_000,
  });
  const lines = tsc.stdout.split('\n').filter((l) => /: error TS\d+:/.test(l));
  return { tsc, errorsOf: (folder) => lines.filter((l) => l.startsWith(`${folder}/`)) };
}
