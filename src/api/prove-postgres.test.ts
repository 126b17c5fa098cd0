/**
 * `prove` on PostgreSQL, through the same grant loop and search as SQLite: a race mutant dies
 * with a counterexample that states its preemptions and replays on the same trace; the
 * reduction prunes nothing there (every statement is dependent), so what runs is exhaustive
 * within the bound; and where the server chose which of two waiting lanes went first, a search
 * that found nothing is incomplete, not held. The server is the run's shared one
 * (`testing/global-postgres.ts`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { THREE_ON_ONE_ROW, TWO_ON_ONE_ROW } from '../../testing/server-ordered-case.ts';
import type { Step } from '../model/events.ts';
import { DEFAULT_FIXTURE } from '../model/world.ts';
import { formatCaseFile } from '../report/case-file.ts';
import { proveVerdict } from '../report/format-prove.ts';
import { loadCaseFile } from './load-case-file.ts';
import { prove } from './prove.ts';
import { runCase } from './run-case.ts';

/** Where the cases written here go; removed after the file's tests. */
const CASES = mkdtempSync(join(tmpdir(), 'prove-pg-'));
afterAll(() => rmSync(CASES, { recursive: true, force: true }));

describe('prove on PostgreSQL', () => {
  it('kills pg-check-then-act with a counterexample that replays exactly', async () => {
    // Two lanes: with three, two may wait on one row at once, and which of them PostgreSQL lets
    // on first when the holder commits is a race between their backends, so such a trace does
    // not always replay (docs/postgres-scheduled.md, "What is not deterministic").
    const r = await prove({ handler: 'pg-check-then-act', lanesMax: 2 });
    expect(r.engine).toBe('postgres');
    expect(r.verdict).toBe('failed');
    expect(r.pruned).toBe(0);
    const f = r.failure;
    if (!f) throw new Error('no failure');
    expect(f.preemptions).toBe(1);
    const file = join(CASES, 'pg-check-then-act.json');
    writeFileSync(file, formatCaseFile(f.caseFile));
    const replayed = await runCase(loadCaseFile(file));
    expect(replayed.verdict).toBe('failed');
    expect((replayed.detail as { traceHash?: string }).traceHash).toBe(f.detail.traceHash);
  }, 120_000);

  const rowCase = (steps: Step[]) => ({
    name: 'row-queue',
    description: '',
    handler: 'pg-reference',
    mode: 'scheduled' as const,
    fixture: DEFAULT_FIXTURE,
    steps,
    expectations: [],
    extra: {},
  });

  it('three calls queued on one row: nothing fails, but runs the server ordered leave it incomplete', async () => {
    const r = await prove({ caseFiles: [rowCase(THREE_ON_ONE_ROW)], preemptions: 1 });
    expect(r.failure).toBeUndefined();
    expect(r.serverOrdered).toBeGreaterThan(0);
    expect(r.limitReached).toBe(false);
    expect(r.verdict).toBe('incomplete');
    expect(proveVerdict(r)).toMatch(
      /^INCOMPLETE: in \d+ runs? PostgreSQL chose which of the lanes waiting on one lock went first/,
    );
    // Two calls: one waits at a time, the schedule decides everything, and the proof holds.
    const two = await prove({ caseFiles: [rowCase(TWO_ON_ONE_ROW)], preemptions: 1 });
    expect(two.serverOrdered).toBe(0);
    expect(two.verdict).toBe('held');
  }, 240_000);
});
