/**
 * Every code block in README.md and docs/*.md that a user is told to copy is run by some test:
 * a block tagged as code (`ts`, `js`, `sh`, `yaml`, …) must be listed here with the test that runs
 * it, and that test must extract it by its id; illustrative output is tagged `text`. Fails on a
 * new block nobody runs, an untagged block, and a listing that names a block no longer there.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docBlocks, ROOT, RUN_BY_ID, RUNNABLE_LANGS } from './doc-blocks.ts';

/** Tags whose every block one test runs command by command. */
const RUN_BY_LANG: Record<string, string> = {
  sh: 'testing/readme-example.test.ts',
};

const blocks = docBlocks();

describe('code blocks in README.md and docs/*.md', () => {
  it('are found', () => {
    expect(blocks.length).toBeGreaterThan(5);
  });

  it('are all tagged (illustrative output as `text`)', () => {
    const untagged = blocks.filter((b) => b.lang === '').map((b) => `${b.file}:${b.line}`);
    expect(untagged).toEqual([]);
  });

  it('are run by a test when they are code', () => {
    const notRun = blocks
      .filter((b) => RUNNABLE_LANGS.has(b.lang))
      .filter((b) => !(b.id in RUN_BY_ID) && !(b.lang in RUN_BY_LANG))
      .map((b) => `${b.id} (${b.file}:${b.line}, ${b.lang})`);
    expect(notRun).toEqual([]);
  });

  it.each(Object.entries(RUN_BY_ID))('%s is still there, and %s extracts it', (id, runner) => {
    const block = blocks.find((b) => b.id === id);
    expect(block, `no block "${id}" any more`).toBeDefined();
    expect(readFileSync(join(ROOT, runner), 'utf8')).toContain(`'${id}'`);
  });

  it.each(Object.entries(RUN_BY_LANG))('every %s block is run by %s', (lang, runner) => {
    expect(readFileSync(join(ROOT, runner), 'utf8')).toContain(`b.lang === '${lang}'`);
  });
});

describe('README.md', () => {
  it('is a guide of at most 300 lines; the rest is in docs/', () => {
    const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n');
    if (lines.at(-1) === '') lines.pop();
    expect(lines.length).toBeLessThanOrEqual(300);
  });
});
