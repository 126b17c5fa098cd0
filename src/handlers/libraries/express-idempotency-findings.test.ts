/**
 * The express-idempotency findings of docs/findings.md (A, C, D), each reproduced by its committed
 * case file (`fixtures/express-idempotency/`), replayed exactly under its hand-written schedule:
 * the interleaving, crash or fault is the case's, not the machine's timing. Each test pins what
 * the library answered and what it left in the database; it fails if the library's behaviour
 * changes, and then the finding must be revisited. A last pair shows the same calls pass when
 * nothing interferes, so the cases fail for the finding and not for the setup. D's case also
 * holds on a variant declaring `claimExpiry: 'never'` (what a user who accepts D declares), and
 * fails on one falsely declaring claims expire after a second. Two cases are declared behaviour,
 * kept as regression cases: the in-flight 409, and a key reuse told 417 beside a claim that is
 * then withdrawn (once finding B); each holds on the plugin and fails without its declaration.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { loadCaseFile } from '../../api/load-case-file.ts';
import { replayCase } from '../../api/replay-case.ts';
import type { Step } from '../../model/events.ts';
import type { Observed } from '../../model/outcome.ts';
import { outcome } from '../../model/outcome.ts';
import type { CallResult, SetIntervalSnapshot } from '../../model/world.ts';
import { DEFAULT_FIXTURE } from '../../model/world.ts';
import type { CaseFile } from '../../types/case-file.ts';
import type { CaseResult } from '../../types/results.ts';
import plugin from './express-idempotency.ts';
import { EXPRESS_IDEMPOTENCY_TABLE } from './express-idempotency-store.ts';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'express-idempotency');
const V2: CallResult = { id: 1, intervalMinutes: 5, version: 2 };

/** Replays a finding's case file; it must still fail, and exactly (no schedule search). */
async function reproduce(file: string): Promise<CaseResult> {
  const replay = await replayCase(loadCaseFile(join(FIXTURES, file)));
  expect(replay.verdict).toBe('reproduced');
  return replay.result;
}

/** What the client of `step` (and `lane`) was told. */
function told(result: CaseResult, step: number, lane = 0): Observed | undefined {
  return result.trace.observations.find((o) => o.step === step && o.lane === lane)?.observed;
}

const automation1 = (result: CaseResult) =>
  (result.trace.snapshot as SetIntervalSnapshot).automations.find((a) => a.id === 1);

describe('A express-idempotency: two identical first attempts at once', () => {
  it('the loser gets a 500 (the unique-key rejection of its claim escapes)', async () => {
    const result = await reproduce('a-identical-first-attempts-500.json');
    const answers = [told(result, 0, 0), told(result, 0, 1)];
    expect(answers).toContainEqual(outcome.fresh(V2));
    expect(answers).toContainEqual({
      kind: 'error',
      message: `UNIQUE constraint failed: ${EXPRESS_IDEMPOTENCY_TABLE}.idempotency_key`,
    });
    expect(result.trace.snapshot.receipts).toHaveLength(1);
  });
});

describe('express-idempotency: a key reuse racing a claim that is then withdrawn (once B)', () => {
  const b = () => loadCaseFile(join(FIXTURES, 'b-mismatch-racing-withdrawn-claim.json'));

  it('is told keyReuse, though the claim is then deleted: allowed, so the case holds', async () => {
    const replay = await replayCase(b());
    expect(replay.verdict).toBe('held');
    expect(told(replay.result, 1, 0)).toEqual(outcome.refused('conflict'));
    expect(told(replay.result, 1, 1)).toEqual(outcome.keyReuse());
    expect(replay.result.trace.snapshot.receipts.map((r) => r.requestId)).toEqual(['r0']);
  });

  it('fails without the declaration: under the contract a running call shows no claim', async () => {
    const undeclared = join(
      import.meta.dirname,
      'fixtures',
      'undeclared',
      'express-idempotency.ts',
    );
    const replay = await replayCase(b(), { handler: undeclared });
    expect(replay.verdict).toBe('reproduced');
    expect(replay.result.failures).toContainEqual(
      expect.objectContaining({
        kind: 'outcome',
        step: 1,
        lane: 1,
        expected: outcome.refused('conflict'),
        actual: outcome.keyReuse(),
      }),
    );
  });
});

describe('C express-idempotency: the response is stored after it is sent', () => {
  it('a failed store: the client was told ok, the row changed, no receipt, the retry conflicts', async () => {
    const result = await reproduce('c-store-after-send.json');
    expect(told(result, 0)).toEqual(outcome.fresh(V2));
    expect(told(result, 1)).toEqual(outcome.refused('conflict'));
    expect(automation1(result)).toMatchObject({ intervalMinutes: 5, version: 2 });
    expect(result.trace.snapshot.receipts).toEqual([]);
    expect(result.failures.map((f) => f.kind)).toContain('invariant');
  });
});

describe('D express-idempotency: a crash after the claim', () => {
  const d = () => loadCaseFile(join(FIXTURES, 'd-crash-locks-key.json'));
  const variant = (folder: string, file: string) =>
    join(import.meta.dirname, 'fixtures', folder, file);

  it('locks the key: nothing changed, yet every retry gets 409 (in progress)', async () => {
    const result = await reproduce('d-crash-locks-key.json');
    expect(told(result, 1)).toEqual(outcome.refused('conflict'));
    expect(told(result, 2)).toEqual(outcome.refused('conflict'));
    expect(automation1(result)).toMatchObject({ intervalMinutes: 15, version: 1 });
    expect(result.trace.snapshot.receipts).toEqual([]);
    expect(result.failures[0]).toMatchObject({
      kind: 'outcome',
      step: 1,
      expected: { kind: 'ok', replayed: false },
      actual: outcome.refused('conflict'),
    });
  });

  it("holds where claimExpiry: 'never' is declared: the claim explains every 409", async () => {
    const declared = variant('declared', 'express-idempotency-never-expires.ts');
    const replay = await replayCase(d(), { handler: declared });
    expect(replay.verdict).toBe('held');
    expect(told(replay.result, 1)).toEqual(outcome.refused('conflict'));
    expect(told(replay.result, 2)).toEqual(outcome.refused('conflict'));
  });

  it('fails under a false claimExpiry of a second: the claim still refuses after two', async () => {
    const short = variant('undeclared', 'express-idempotency-short-claims.ts');
    const [crashed, ...retries] = d().steps;
    const late = {
      ...d(),
      steps: [crashed as Step, { kind: 'clockAdvance', ms: 2_000 }, ...retries],
    };
    const replay = await replayCase(late as CaseFile, { handler: short });
    expect(replay.verdict).toBe('reproduced');
    expect(replay.result.failures[0]).toMatchObject({
      kind: 'outcome',
      step: 2,
      expected: { kind: 'ok', replayed: false },
      actual: outcome.refused('conflict'),
    });
  });
});

describe('express-idempotency: inFlightDuplicate (declared, not a finding)', () => {
  const c = () => loadCaseFile(join(FIXTURES, 'in-flight-duplicate-409.json'));

  it('an identical duplicate arriving while the claim has no response gets 409: passes as declared', async () => {
    const replay = await replayCase(c());
    expect(replay.verdict).toBe('held');
    expect([told(replay.result, 0, 0), told(replay.result, 0, 1)]).toEqual([
      outcome.fresh(V2),
      outcome.refused('conflict'),
    ]);
  });

  it('fails without the declaration', async () => {
    const undeclared = join(
      import.meta.dirname,
      'fixtures',
      'undeclared',
      'express-idempotency.ts',
    );
    const replay = await replayCase(c(), { handler: undeclared });
    expect(replay.verdict).toBe('reproduced');
  });
});

describe('express-idempotency without interference (the cases fail for their finding)', () => {
  const alice = DEFAULT_FIXTURE.principals[0] as (typeof DEFAULT_FIXTURE.principals)[0];
  const r = { requestId: 'r0', automationId: 1, expectedVersion: 1, intervalMinutes: 5 };

  it('a call and its retry: fresh, then replayed with the stored result, one receipt', async () => {
    const db = new Database(':memory:');
    plugin.setup(db, DEFAULT_FIXTURE);
    expect(await plugin.call(db, alice, r)).toEqual(outcome.fresh(V2));
    expect(await plugin.call(db, alice, r)).toEqual(outcome.replayed(V2));
    expect(await plugin.call(db, alice, { ...r, intervalMinutes: 6 })).toEqual(outcome.keyReuse());
    expect(plugin.snapshot(db).receipts).toHaveLength(1);
    db.close();
  });

  it('a refused call leaves no claim behind: its retry runs again', async () => {
    const db = new Database(':memory:');
    plugin.setup(db, DEFAULT_FIXTURE);
    const stale = { ...r, expectedVersion: 2 };
    expect(await plugin.call(db, alice, stale)).toEqual(outcome.refused('conflict'));
    expect(db.prepare(`SELECT count(*) AS n FROM ${EXPRESS_IDEMPOTENCY_TABLE}`).get()).toEqual({
      n: 0,
    });
    expect(await plugin.call(db, alice, stale)).toEqual(outcome.refused('conflict'));
    db.close();
  });
});
