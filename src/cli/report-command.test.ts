/**
 * The HTML timeline from the command line: `report` draws every scenario in `scenarios/` and every
 * kind of saved counterexample (sequential, concurrent, scheduled, a soak history), writes beside
 * the file by default, and refuses a file it cannot read in one line; `run --html` and
 * `replay --html` write the page and name it (a JUnit failure and `--json` link it too); the text
 * gives every statement in full on `--verbose`. Scheduled mode makes the run deterministic.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listCaseFiles } from '../api/load-case-file.ts';
import { runCli as cli } from './run-cli.ts';

const tmp = mkdtempSync(join(tmpdir(), 'receiptcheck-report-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const root = new URL('../../', import.meta.url).pathname;
const saved = join(root, 'testing/timeline');

describe('receiptcheck report', () => {
  const scenarios = listCaseFiles(join(root, 'scenarios'));

  it('finds the scenarios to draw', () => {
    expect(scenarios.length).toBeGreaterThan(20);
  });

  it.each(scenarios.map((f) => [f.slice(root.length), f]))('draws %s', async (_name, file) => {
    const out = join(tmp, 'scenario.html');
    const r = await cli('report', file, '--out', out);
    expect(r.code).toBe(0);
    expect(r.out).toBe(`timeline: ${out}   (open it in a browser)\n`);
    const page = readFileSync(out, 'utf8');
    expect(page).toContain('class="lane"');
    expect(page).toContain('Not run');
    expect(page).toContain('nothing judged');
    // The replay command the page gives works: scenarios name no handler, so it passes one.
    const replay = /npx receiptcheck replay ([^\s<]+)((?: --handler [^\s<]+)?)/.exec(page);
    expect(replay?.[1]).toBe(file);
    const args = ['replay', file, ...(replay?.[2] ?? '').trim().split(' ').filter(Boolean)];
    const replayed = await cli(...args);
    expect(replayed.err).toBe('');
    // 3: a concurrent scenario that holds is "not reproduced", which is no proof of a fix.
    expect([0, 3]).toContain(replayed.code);
  });

  it.each([
    ['sequential-version-before-receipt.json', 'rule 7'],
    ['scheduled-check-then-act.json', 'rule 6'],
    ['concurrent-check-then-act.json', 'No serial order explains'],
    ['soak-replay-not-flagged.json', 'the failing partition'],
  ])('draws the saved %s beside it', async (name, text) => {
    const file = join(tmp, name);
    copyFileSync(join(saved, name), file);
    const r = await cli('report', file);
    const page = file.replace(/\.json$/, '.html');
    expect(r.code).toBe(0);
    expect(r.out).toContain(page);
    expect(readFileSync(page, 'utf8')).toContain(text);
  });

  it('refuses a file it cannot read, in one line', async () => {
    const r = await cli('report', join(tmp, 'missing.json'));
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/E_BAD_SCENARIO: cannot read .*missing\.json/);
  });
});

describe('--html', () => {
  it('run --mode scheduled writes the page of check-then-act: both lanes and the wrong call', async () => {
    const html = join(tmp, 'html');
    const r = await cli(
      'run',
      '--handler',
      'check-then-act',
      '--mode',
      'scheduled',
      '--out',
      join(tmp, 'cx'),
      '--html',
      html,
      '--junit',
      join(tmp, 'junit.xml'),
    );
    expect(r.code).toBe(1);
    const page = join(html, 'check-then-act-scheduled-seed42.html');
    expect(r.out).toContain(`timeline: ${page}`);
    // The JUnit failure links the page too: in its text, and as an attachment CI turns into a link.
    const junit = readFileSync(join(tmp, 'junit.xml'), 'utf8');
    expect(junit).toContain(`timeline: ${page}`);
    expect(junit).toContain(`<property name="timeline" value="${page}"/>`);
    expect(junit).toContain(`[[ATTACHMENT|${page}]]`);
    // The text keeps its lanes, cut to fit, and says where the full statements are.
    expect(r.out).toContain('Interleaving (statement by statement, one column per lane):');
    expect(r.out).toContain('--verbose prints each in full');
    expect(r.out).not.toContain('Statements in full');
    const text = readFileSync(page, 'utf8');
    expect(text.match(/class="lane"/g)).toHaveLength(2);
    expect(text).toMatch(/class="bar [^"]*wrong/);
  });

  it('run --json names the page it wrote, beside the case file', async () => {
    const r = await cli(
      'run',
      '--handler',
      'check-then-act',
      '--mode',
      'scheduled',
      '--out',
      join(tmp, 'cx-json'),
      '--json',
    );
    expect(r.code).toBe(1);
    const report = JSON.parse(r.out) as { counterexample: { file: string; timeline: string } };
    expect(report.counterexample.file).toBe(
      join(tmp, 'cx-json', 'check-then-act-scheduled-seed42.json'),
    );
    expect(report.counterexample.timeline).toBe(
      report.counterexample.file.replace(/json$/, 'html'),
    );
    expect(existsSync(report.counterexample.timeline)).toBe(true);
  });

  it('replay --html writes the replayed run beside nothing else', async () => {
    const out = join(tmp, 'replayed');
    const r = await cli('replay', join(saved, 'scheduled-check-then-act.json'), '--html', out);
    expect(r.code).toBe(1);
    const page = join(out, 'scheduled-check-then-act.html');
    expect(r.out).toContain(`timeline: ${page}`);
    expect(existsSync(page)).toBe(true);
    expect(readFileSync(page, 'utf8')).toContain('(replayed)');
  });
});

describe('full SQL on request', () => {
  const full =
    'lane 1: SELECT payload, response FROM receipts WHERE workspace_id = ? AND user_id = ? AND tool = ? AND request_id = ?   -- parameters: "team-a", "alice", "set_interval.v1", "r0"';

  it('run --verbose prints every statement of the scheduled counterexample in full', async () => {
    const r = await cli(
      'run',
      '--handler',
      'check-then-act',
      '--mode',
      'scheduled',
      '--out',
      join(tmp, 'cx-verbose'),
      '--verbose',
    );
    expect(r.code).toBe(1);
    expect(r.out).toContain('Statements in full (numbered as above):');
    expect(r.out).toContain(full);
  });

  it('replay --verbose does too, and without it only the cut lanes', async () => {
    const file = join(saved, 'scheduled-check-then-act.json');
    const verbose = await cli('replay', file, '--verbose');
    expect(verbose.code).toBe(1);
    expect(verbose.out).toContain(full);
    const plain = await cli('replay', file);
    expect(plain.out).not.toContain(full);
    expect(plain.out).toContain('--verbose prints each in full');
  });
});
