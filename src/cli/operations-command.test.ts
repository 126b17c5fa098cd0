/**
 * Picking an operation from the command line: `receiptcheck operations` lists the built-ins,
 * `--operation` picks among an operation's bundled handlers for `run` and `mutants`, a plugin of
 * another operation is a usage error, and a counterexample speaks the operation's own words and
 * re-runs with the same flags. Sequential and scheduled mode only: nothing here waits on threads.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILT_IN_OPERATIONS } from '../model/operations/index.ts';
import { decodeJson } from '../report/encode.ts';
import { runCli as cli } from './run-cli.ts';

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON, held to shape by the assertions
type Loose = any;

const tmp = mkdtempSync(join(tmpdir(), 'receiptcheck-operations-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('receiptcheck operations', () => {
  it('--json lists every built-in with its tool, scope and fields in validation order', async () => {
    const r = await cli('operations', '--json');
    expect(r.code).toBe(0);
    const listed = (decodeJson(r.out) as Loose).operations as Loose[];
    expect(listed.map((o) => o.name)).toEqual([
      'set-interval',
      'create-once',
      'adjust-balance',
      'transfer',
    ]);
    for (const spec of BUILT_IN_OPERATIONS) {
      const o = listed.find((x) => x.name === spec.name);
      expect(o).toMatchObject({ tool: spec.tool, scope: spec.scope, target: spec.targetField });
      expect(o.fields.map((f: Loose) => f.name)).toEqual(spec.fields.map((f) => f.name));
    }
    expect(listed.find((o) => o.name === 'adjust-balance').refusals).toContain('insufficient');
    expect(listed.find((o) => o.name === 'create-once').creates).toBe('invoices');
    expect(listed.find((o) => o.name === 'transfer').targets).toEqual([
      'fromAccountId',
      'toAccountId',
    ]);
  });
});

describe('run --operation', () => {
  it.each(['create-once', 'adjust-balance', 'transfer'])(
    '%s: its reference holds in sequential and scheduled mode',
    async (operation) => {
      for (const mode of ['sequential', 'scheduled']) {
        const r = await cli('run', '--operation', operation, '--mode', mode, '--runs', '60');
        expect(r.code, r.out + r.err).toBe(0);
        expect(r.out).toContain(`${operation}-reference`);
      }
    },
  );

  it('a mutant by its short name: the counterexample names the fields, and re-runs with --operation', async () => {
    const out = join(tmp, 'cx');
    const r = await cli(
      'run',
      '--operation',
      'create-once',
      '--handler',
      'receipt-after-insert',
      '--mode',
      'sequential',
      '--out',
      out,
    );
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/create-once customerId \d+, amount \d+/);
    expect(r.out).toContain('invoice');
    expect(r.out).toContain(
      're-run:  npx receiptcheck run --handler receipt-after-insert --operation create-once --seed 42 --mode sequential',
    );
    const replay = await cli(
      'replay',
      join(out, 'create-once-receipt-after-insert-sequential-seed42.json'),
    );
    expect(replay.code).toBe(1);
  });

  it('an unknown operation, or a handler of another operation, is a usage error (exit 2)', async () => {
    const unknown = await cli('run', '--operation', 'nope');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('unknown operation "nope"');
    const mismatch = await cli(
      'run',
      '--operation',
      'adjust-balance',
      '--handler',
      'payload-unchecked',
    );
    expect(mismatch.code).toBe(2);
    expect(mismatch.err).toContain('adjust-balance');
    // A plugin file that implements another operation than the one asked for.
    const file = fileURLToPath(
      new URL(
        '../handlers/operations/create-once/sqlite/create-once-reference.ts',
        import.meta.url,
      ),
    );
    const other = await cli('run', '--operation', 'adjust-balance', '--handler', file);
    expect(other.code).toBe(2);
    expect(other.err).toContain('implements operation "create-once", not "adjust-balance"');
  });
});

describe('mutants --operation', () => {
  it('adjust-balance: every sequential mutant killed, the reference held, its scenarios run', async () => {
    const r = await cli(
      'mutants',
      '--operation',
      'adjust-balance',
      '--mode',
      'sequential',
      '--json',
    );
    expect(r.code, r.err).toBe(0);
    const report = decodeJson(r.out) as Loose;
    expect(report.summary).toMatchObject({ verdict: 'ok', survivors: [] });
    expect(report.results.every((x: Loose) => x.killedByScenarios !== undefined)).toBe(true);
    expect(report.results.map((x: Loose) => x.name)).toContain(
      'adjust-balance-effect-before-receipt',
    );
  });
});
