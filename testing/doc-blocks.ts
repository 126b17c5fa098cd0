/**
 * Test-only: the fenced code blocks of README.md and docs/*.md, each with a stable id, so the
 * tests that run what users are told to copy can extract exactly those blocks, and
 * `doc-blocks.test.ts` can tell a block no test runs.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** One fenced block. */
export interface DocBlock {
  /** Relative to the root: `README.md`, `docs/contract.md`. */
  readonly file: string;
  /** The fence's language tag (`ts`, `sh`, `text`, …); empty when untagged. */
  readonly lang: string;
  /**
   * The file it says it is, from a first line `// name` or `# name` (`my-handler.ts`); else
   * `file › heading`, with `#2`, `#3` for later blocks under the same heading.
   */
  readonly id: string;
  /** The block's text, without the fences. */
  readonly text: string;
  /** Its fence's line number, 1-based. */
  readonly line: number;
}

/** Tags of blocks that are meant to be run or copied; `text` marks illustrative output. */
export const RUNNABLE_LANGS: ReadonlySet<string> = new Set([
  'ts',
  'typescript',
  'js',
  'javascript',
  'mjs',
  'sh',
  'bash',
  'shell',
  'yaml',
  'yml',
]);

/**
 * Blocks run by id: the test file that extracts each (by this very id) and runs it. A shell
 * block listed here is run by its test alone, not command by command with the other `sh` blocks.
 */
export const RUN_BY_ID: Readonly<Record<string, string>> = {
  'my-handler.ts': 'testing/readme-example.test.ts',
  '.github/workflows/receiptcheck.yml': 'testing/readme-example.test.ts',
  'my-handler.test.ts': 'src/package.test.ts',
  'draw-a-counterexample.ts': 'src/api/timeline-page.test.ts',
  'my-handler.test.mjs': 'src/package.test.ts',
  'my-pg-handler.ts': 'testing/pg-readme-example.test.ts',
  'my-operation.ts': 'testing/own-operation.test.ts',
  'my-tool-handler.ts': 'testing/own-operation.test.ts',
  'my-library-adapter.ts': 'testing/library-adapter.test.ts',
  'move-stock.ts': 'testing/move-stock.test.ts',
  'README.md › Check your own tool': 'testing/own-operation.test.ts',
  'README.md › Plant a bug': 'testing/own-operation.test.ts',
  'README.md › Plant a bug #2': 'testing/own-operation.test.ts',
  'README.md › Plant a bug #3': 'testing/own-operation.test.ts',
  'docs/case-files.md › A hand-written scheduled case': 'testing/case-files-doc.test.ts',
  'docs/case-files.md › A hand-written scheduled case #2': 'testing/case-files-doc.test.ts',
  'docs/services.md › Checking a running service': 'src/execute/service/service.test.ts',
  'docs/services.md › Services on PostgreSQL': 'src/execute/service/pg-service.test.ts',
};

/** The markdown files whose blocks users read: README.md and every page under docs/. */
export function docFiles(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs];
}

/** Every fenced block of `file` (relative to the root). */
export function blocksOf(file: string): DocBlock[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const blocks: DocBlock[] = [];
  const seen = new Map<string, number>();
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const h = /^#{1,6}\s+(.*)$/.exec(line);
    if (h) heading = (h[1] ?? '').trim();
    const fence = /^```(\S*)\s*$/.exec(line);
    if (!fence) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !(lines[i] ?? '').startsWith('```'); i++)
      body.push(lines[i] ?? '');
    const named = /^(?:\/\/|#)\s+(\S+\.\w+)\s*$/.exec(body[0] ?? '');
    let id = named?.[1] ?? `${file} › ${heading}`;
    const n = (seen.get(id) ?? 0) + 1;
    seen.set(id, n);
    if (n > 1) id = `${id} #${n}`;
    blocks.push({ file, lang: fence[1] ?? '', id, text: `${body.join('\n')}\n`, line: start + 1 });
  }
  return blocks;
}

/** Every block of README.md and docs/*.md. */
export function docBlocks(): DocBlock[] {
  return docFiles().flatMap(blocksOf);
}

/** The block with this id; throws when there is none (a renamed or removed block). */
export function docBlock(id: string): DocBlock {
  const block = docBlocks().find((b) => b.id === id);
  if (!block) throw new Error(`no code block "${id}" in README.md or docs/*.md`);
  return block;
}

/**
 * The commands of a shell block, one per `&&`-separated part of each line, comments and blank
 * lines dropped.
 */
export function commandsOf(block: DocBlock): string[] {
  return block.text
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .flatMap((l) => l.split('&&').map((c) => c.trim()));
}
