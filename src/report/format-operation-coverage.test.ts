/**
 * The summary's lines on the operation's rules: edges met on each side, answers, refusals,
 * conflicting groups and the split of runs by mode, counted from generated sequences.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sequenceArbitrary } from '../generate/sequence-arbitrary.ts';
import { adjustBalance } from '../model/operations/adjust-balance.ts';
import { createOnce } from '../model/operations/create-once.ts';
import { formatOperationCoverage, formatSplit } from './format-operation-coverage.ts';
import { countOperationCoverage, emptyOperationCoverage } from './operation-coverage.ts';

const counted = (spec: typeof adjustBalance) => {
  const fixture = { ...spec.fixture, operation: spec.name };
  const coverage = emptyOperationCoverage(spec);
  const arbitrary = sequenceArbitrary(fixture, { spec, stepsMax: 20, races: true, recreate: true });
  for (const steps of fc.sample(arbitrary, { seed: 1, numRuns: 100 }))
    countOperationCoverage(steps, fixture, spec, coverage);
  return coverage;
};

describe('operation coverage', () => {
  it('counts calls at the overdraft edge on both sides, refusals and conflicting groups', () => {
    const c = counted(adjustBalance);
    expect(c.edges.delta?.held).toBeGreaterThan(5);
    expect(c.edges.delta?.refused).toBeGreaterThan(5);
    expect(c.refusals.insufficient).toBeGreaterThan(0);
    expect(c.outcomes.fresh).toBeGreaterThan(0);
    expect(c.groups.conflicting).toBeGreaterThan(0);
    const lines = formatOperationCoverage(c).join('\n');
    expect(lines).toMatch(/edges {5}delta \d+ held · \d+ refused/);
    expect(lines).toMatch(/refusals .*insufficient \d+/);
    expect(lines).toMatch(/groups {4}\d+ concurrent, \d+ conflicting \(\d+%\)/);
  });

  it('says an operation without a precondition has no edge to seek', () => {
    const lines = formatOperationCoverage(counted(createOnce));
    expect(lines[0]).toBe('  edges     none to seek: create-once has no precondition');
  });

  it('prints each mode’s runs of its share', () => {
    const split = [
      { mode: 'sequential', runs: 100, runsPlanned: 100 },
      { mode: 'scheduled', runs: 7, runsPlanned: 200 },
    ];
    expect(formatSplit(split)).toBe('  split     sequential 100 · scheduled 7 of 200 runs');
  });
});
