/**
 * The timeline from code: `renderTimeline` draws a counterexample `checkHandler` returned (the
 * scheduled race of check-then-act: both lanes, the blamed call and its rule, the replay command
 * of the file it was saved as); `writeTimeline` draws any saved case beside it or where asked, and
 * refuses a file it cannot read with a coded error. docs/counterexamples.md's example
 * (`draw-a-counterexample.ts`) runs as a user would run it, in a project of its own.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { docBlock, ROOT } from '../../testing/doc-blocks.ts';
import { localImports, makeProject, outcomeOf } from '../../testing/user-project.ts';
import { checkHandler, isReceiptcheckError, renderTimeline, writeTimeline } from '../index.ts';

const tmp = mkdtempSync(join(tmpdir(), 'receiptcheck-timeline-api-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const saved = new URL('../../testing/timeline/', import.meta.url).pathname;

describe('renderTimeline', () => {
  it("draws check-then-act's scheduled counterexample: two lanes, the wrong call, its rule", async () => {
    const result = await checkHandler({ handler: 'check-then-act', mode: 'scheduled' });
    const cx = result.counterexample;
    if (!cx)
      throw new Error('check-then-act holds in scheduled mode: the mutant is no longer caught');
    const page = renderTimeline(cx, { savedPath: 'counterexamples/race.json' });
    expect(page.startsWith('<!doctype html>')).toBe(true);
    expect(page.match(/class="lane"/g)).toHaveLength(2);
    expect(page).toMatch(/class="bar [^"]*wrong/);
    // The rule the wrong call broke (which one depends on the race the seed finds).
    expect(page).toMatch(/class="wrong-row".*<span class="rule">rule \d+<\/span>/s);
    expect(page).toContain('npx receiptcheck replay counterexamples/race.json');
    // Self-contained: nothing is fetched.
    expect(page).not.toMatch(/(src|href)="https?:/);
    // Without a saved file there is no replay command to give, only the re-run.
    const unsaved = renderTimeline(cx);
    expect(unsaved).not.toContain('receiptcheck replay');
    expect(unsaved).toContain('npx receiptcheck run --handler check-then-act --seed 42');
  });
});

describe('writeTimeline', () => {
  it('writes the page of a saved case beside it, or where asked, and returns its path', () => {
    const file = join(tmp, 'scheduled-check-then-act.json');
    copyFileSync(join(saved, 'scheduled-check-then-act.json'), file);
    const beside = writeTimeline(file);
    expect(beside).toBe(join(tmp, 'scheduled-check-then-act.html'));
    expect(readFileSync(beside, 'utf8')).toContain('rule 6');
    const elsewhere = writeTimeline(file, { out: join(tmp, 'pages', 'race.html') });
    expect(elsewhere).toBe(join(tmp, 'pages', 'race.html'));
    expect(readFileSync(elsewhere, 'utf8')).toBe(readFileSync(beside, 'utf8'));
  });

  it('refuses a file it cannot read with E_BAD_SCENARIO', () => {
    let thrown: unknown;
    try {
      writeTimeline(join(tmp, 'missing.json'));
    } catch (e) {
      thrown = e;
    }
    expect(isReceiptcheckError(thrown) && thrown.code).toBe('E_BAD_SCENARIO');
  });
});

describe("docs/counterexamples.md's draw-a-counterexample.ts", () => {
  it('writes the page of the race it finds and prints its path', () => {
    const project = join(tmp, 'project');
    const script = localImports(docBlock('draw-a-counterexample.ts').text, 'the docs example');
    makeProject(project, { 'draw-a-counterexample.ts': script });
    const tsx = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
    const r = spawnSync(process.execPath, [tsx, 'draw-a-counterexample.ts'], {
      cwd: project,
      encoding: 'utf8',
      timeout: 300_000,
    });
    expect(r.status, outcomeOf(r)).toBe(0);
    expect(r.stdout).toBe('timeline: counterexamples/check-then-act-scheduled-seed42.html\n');
    const page = join(project, 'counterexamples', 'check-then-act-scheduled-seed42.html');
    expect(readFileSync(page, 'utf8')).toMatch(
      /class="wrong-row".*<span class="rule">rule \d+<\/span>/s,
    );
    expect(existsSync(page.replace(/html$/, 'json'))).toBe(true);
  });
});
