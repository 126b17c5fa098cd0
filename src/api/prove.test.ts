import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { catalogueOf } from '../handlers/registry.ts';
import { formatCaseFile } from '../report/case-file.ts';
import { loadCaseFile } from './load-case-file.ts';
import { prove } from './prove.ts';
import { runCase } from './run-case.ts';

/** Where the cases written here go; removed after the file's tests. */
const CASES = mkdtempSync(join(tmpdir(), 'prove-'));
afterAll(() => rmSync(CASES, { recursive: true, force: true }));

/** Every SQLite mutant of every operation that only the scheduler kills: the races. */
const RACE_MUTANTS = (
  ['set-interval', 'create-once', 'adjust-balance', 'transfer'] as const
).flatMap((operation) =>
  catalogueOf(operation, 'sqlite')
    .filter((m) => m.mode === 'scheduled')
    .map((m) => [m.name, operation] as const),
);

const PRE_READ = join(import.meta.dirname, 'fixtures', 'pre-read-reference.ts');

describe('prove on SQLite', () => {
  it('knows the race mutants it is held to', () => {
    expect(RACE_MUTANTS.length).toBeGreaterThanOrEqual(8);
  });

  it.each(RACE_MUTANTS)(
    'kills %s with a counterexample that states its preemptions and replays exactly',
    async (handler, operation) => {
      const r = await prove({ handler, operation });
      expect(r.verdict).toBe('failed');
      const f = r.failure;
      if (!f) throw new Error('no failure');
      expect(f.preemptions).toBeLessThanOrEqual(2);
      expect(f.caseFile.extra.preemptions).toBe(f.preemptions);
      // Saved and read back like any case file, it fails again on the same trace.
      const file = join(CASES, `${handler}-${operation ?? 'set-interval'}.json`);
      writeFileSync(file, formatCaseFile(f.caseFile));
      const replayed = await runCase(loadCaseFile(file));
      expect(replayed.verdict).toBe('failed');
      expect((replayed.detail as { traceHash?: string }).traceHash).toBe(f.detail.traceHash);
    },
    60_000,
  );

  it('holds on the reference, and says for how many schedules', async () => {
    const r = await prove({ handler: 'reference', cases: 3 });
    expect(r.verdict).toBe('held');
    expect(r.cases).toBe(3);
    expect(r.runs).toBeGreaterThan(3);
    expect(r.failure).toBeUndefined();
  }, 60_000);

  it('a mutant whose race needs a preemption survives bound 0 and dies at bound 2', async () => {
    const zero = await prove({ handler: 'check-then-act', preemptions: 0 });
    expect(zero.verdict).toBe('held');
    expect(zero.beyondBound).toBeGreaterThan(0);
    const two = await prove({ handler: 'check-then-act', preemptions: 2 });
    expect(two.verdict).toBe('failed');
    expect(two.failure?.preemptions).toBe(1);
  }, 60_000);

  it.each([
    ['check-then-act', 'set-interval'],
    ['adjust-balance-lost-update', 'adjust-balance'],
    ['create-once-check-then-act', 'create-once'],
    ['deferred-transaction', 'set-interval'],
  ] as const)(
    'reduction loses no bug: %s dies with it on as with it off, at the same preemptions',
    async (handler, operation) => {
      const on = await prove({ handler, operation, reduce: true });
      const off = await prove({ handler, operation, reduce: false });
      expect(on.verdict).toBe('failed');
      expect(off.verdict).toBe('failed');
      expect(on.failure?.preemptions).toBe(off.failure?.preemptions);
      expect(on.runs).toBeLessThanOrEqual(off.runs);
    },
    60_000,
  );

  it('injections: a swallowed store fault survives interleavings alone and dies with every fault placed', async () => {
    const plain = await prove({ handler: 'receipt-error-swallowed', cases: 1 });
    expect(plain.verdict).toBe('held');
    const injected = await prove({
      handler: 'receipt-error-swallowed',
      cases: 1,
      injections: true,
    });
    expect(injected.verdict).toBe('failed');
    const schedule = injected.failure?.detail.schedule ?? [];
    expect(schedule.some((e) => e.fault !== undefined || e.crash !== undefined)).toBe(true);
    const replayed = await runCase(injected.failure?.caseFile as Parameters<typeof runCase>[0]);
    expect(replayed.verdict).toBe('failed');
  }, 60_000);

  it('reduction prunes reads that commute, on a correct handler, and still holds', async () => {
    const on = await prove({ handler: PRE_READ, cases: 2, reduce: true });
    const off = await prove({ handler: PRE_READ, cases: 2, reduce: false });
    expect(on.verdict).toBe('held');
    expect(off.verdict).toBe('held');
    expect(on.pruned).toBeGreaterThan(0);
    expect(off.pruned).toBe(0);
    expect(on.runs).toBeLessThan(off.runs);
  }, 60_000);
});
