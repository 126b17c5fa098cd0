/**
 * An incomplete case file never gets a verdict. A create-once counterexample whose receipt
 * store fails before a call replays as reproduced against the mutant that inserts its receipt
 * after the commit; with a field it needs removed (its fixture, its mode, the fixture's principals
 * or rows) it would replay as another case, so `replay` (and `scenarios`) exit 2 with one line
 * naming the field instead. A scenario that names no fixture but sends create-once's arguments
 * is refused the same way: read in the default world it would be a set-interval case.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Step } from '../model/events.ts';
import { createOnce } from '../model/operations/create-once.ts';
import { formatCaseFile } from '../report/case-file.ts';
import { decodeJson } from '../report/encode.ts';
import { EXIT } from './exit-codes.ts';
import { runCli as cli } from './run-cli.ts';

const tmp = mkdtempSync(join(tmpdir(), 'receiptcheck-incomplete-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const STEPS: Step[] = [
  { kind: 'storeFail' },
  {
    kind: 'call',
    client: 0,
    delivery: 'delivered',
    request: { requestId: 'r0', customerId: 1, amount: 100 },
  },
];

/** The counterexample as `run` writes it, as parsed JSON, to be cut. */
function counterexample(): Record<string, unknown> {
  return decodeJson(
    formatCaseFile({
      name: 'create-once-receipt-after-commit: counterexample (seed 42)',
      description: 'a failing store leaves an invoice without its receipt',
      handler: 'create-once-receipt-after-commit',
      mode: 'sequential',
      fixture: { ...createOnce.fixture, operation: 'create-once' },
      steps: STEPS,
      extra: { seed: 42, path: '0', runsToFailure: 1, shrinks: 0, failures: [] },
    }),
  ) as Record<string, unknown>;
}

/** Writes `json` as `name` and returns its path. */
function write(name: string, json: unknown): string {
  const path = join(tmp, name);
  writeFileSync(path, JSON.stringify(json));
  return path;
}

describe('an incomplete case file', () => {
  it('complete, the counterexample is reproduced (exit 1)', async () => {
    const r = await cli('replay', write('complete.json', counterexample()));
    expect(r.err).toBe('');
    expect(r.code).toBe(EXIT.failed);
    expect(r.out).toContain('reproduced');
  });

  it.each([
    ['fixture', (c: Record<string, unknown>) => delete c.fixture, /with no "fixture"/],
    ['mode', (c: Record<string, unknown>) => delete c.mode, /with no "mode"/],
    [
      'fixture.principals',
      (c: Record<string, unknown>) => delete (c.fixture as Record<string, unknown>).principals,
      /without a "principals" list/,
    ],
    [
      'fixture.customers',
      (c: Record<string, unknown>) => delete (c.fixture as Record<string, unknown>).customers,
      /without "customers", the create-once rows/,
    ],
  ])('without %s: exit 2, one line naming it, no verdict', async (field, cut, message) => {
    const c = counterexample();
    cut(c);
    const file = write(`no-${field}.json`, c);
    const r = await cli('replay', file);
    expect(r.code).toBe(EXIT.usage);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/^receiptcheck: E_BAD_SCENARIO: .*no-.*\.json /);
    expect(r.err).toMatch(message);
    expect(r.err.trimEnd().split('\n')).toHaveLength(1);
  });

  it("a scenario that sends another operation's arguments without a fixture is refused by scenarios too", async () => {
    const dir = join(tmp, 'scenarios');
    mkdirSync(dir);
    const {
      fixture: _f,
      seed: _s,
      path: _p,
      runsToFailure: _r,
      shrinks: _h,
      failures: _x,
      ...c
    } = counterexample();
    write('scenarios/a.json', { ...c, name: 'no fixture' });
    const r = await cli('scenarios', '--dir', dir);
    expect(r.code).toBe(EXIT.usage);
    expect(r.err).toContain(
      'step 2: the request names "customerId", which is no argument of set-interval',
    );
  });
});
