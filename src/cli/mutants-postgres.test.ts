/**
 * `receiptcheck mutants --engine postgres`: the PostgreSQL catalogue listed; with `--runs 1` the
 * mutants survive and the exit code is 1 while the references hold (the runs that kill each
 * mutant, and so exit 0 at the default runs, are in handlers/operations/set-interval/postgres/mutants/mutants.test.ts);
 * an unknown engine is a usage error. The embedded server is gone afterwards.
 */
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import {
  PG_MUTANT_CATALOGUE,
  PG_REFERENCES,
} from '../handlers/operations/set-interval/postgres/pg-mutant-plugins.ts';
import { catalogueOf } from '../handlers/registry.ts';
import { runCli as cli } from './run-cli.ts';

describe('receiptcheck mutants --engine postgres', () => {
  it('--list prints every PostgreSQL mutant with its bug and real-world class', async () => {
    const r = await cli('mutants', '--engine', 'postgres', '--list');
    expect(r.code).toBe(0);
    for (const m of PG_MUTANT_CATALOGUE)
      expect(r.out).toContain(
        `  ${m.name} (scheduled)\n      bug:   ${m.bug}\n      class: ${m.realWorldClass}`,
      );
  });

  it('--operation transfer --list prints transfer’s; an operation without one is a usage error', async () => {
    const r = await cli('mutants', '--engine', 'postgres', '--operation', 'transfer', '--list');
    expect(r.code).toBe(0);
    expect(r.out).toContain('PostgreSQL mutants of transfer');
    for (const m of catalogueOf('transfer', 'postgres'))
      expect(r.out).toContain(`  ${m.name} (scheduled)`);
    expect(r.out).toContain('References that must hold: transfer-pg-reference');
    const none = await cli('mutants', '--engine', 'postgres', '--operation', 'create-once');
    expect(none.code).toBe(2);
    expect(none.err).toContain('operation "create-once" has no PostgreSQL mutant catalogue');
  });

  it('--runs 1: the references hold, the mutants survive, exit 1', async () => {
    const r = await cli('mutants', '--engine', 'postgres', '--runs', '1', '--json');
    expect(r.code).toBe(1);
    const report = JSON.parse(r.out);
    expect(report).toMatchObject({ verdict: 'failed', engine: 'postgres', seed: 42 });
    expect(report.summary.survivors).toEqual(PG_MUTANT_CATALOGUE.map((m) => m.name));
    for (const p of PG_REFERENCES)
      expect(report.rows).toContainEqual(expect.objectContaining({ name: p.name, status: 'held' }));
    expect(
      readdirSync(tmpdir()).filter((n) => n.startsWith(`receiptcheck-pg-${process.pid}-`)),
    ).toEqual([]);
  }, 300_000);

  it('an unknown engine is a usage error', async () => {
    const r = await cli('mutants', '--engine', 'mysql');
    expect(r.code).not.toBe(0);
    expect(r.err).toContain('--engine must be one of sqlite, postgres, not "mysql"');
  });
});
