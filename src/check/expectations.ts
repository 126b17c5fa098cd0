/**
 * Checks the outcomes a case file promises (`expect`, `expectAnyOrder`, `expectFinal`) against
 * what a run observed, or against what the model computes. This is how the article's cases pin
 * the model itself to the article, not only handlers to the model. Pure.
 */

import { flatten } from '../model/flatten.ts';
import { type OperationSpec, type Row, targetRows } from '../model/operation.ts';
import { describeOutcome, type Observed } from '../model/outcome.ts';
import { describePattern, matchesPattern, type OutcomePattern } from '../model/outcome-pattern.ts';
import { initialState, toSnapshot } from '../model/state.ts';
import { step } from '../model/step.ts';
import type { CaseFile } from '../types/case-file.ts';
import type { ExpectationFailure } from '../types/results.ts';
import type { Trace } from '../types/trace.ts';

/** Compares a trace with the case's expectations. */
export function checkExpectations(
  c: CaseFile,
  spec: OperationSpec,
  trace: Trace,
): ExpectationFailure[] {
  const failures: ExpectationFailure[] = [];
  const at = (step: number, lane: number) =>
    trace.observations.find((o) => o.step === step && o.lane === lane)?.observed;
  for (const e of c.expectations) {
    if ('outcome' in e) {
      const seen = at(e.step, e.lane);
      if (!seen || !matchesPattern(e.outcome, seen)) {
        failures.push({
          step: e.step,
          message: `step ${e.step + 1}${e.lane ? ` lane ${e.lane + 1}` : ''}: expected ${describePattern(e.outcome)}, got ${seen ? describeOutcome(seen) : 'nothing'}`,
        });
      }
    } else {
      const seen = trace.observations.filter((o) => o.step === e.step).map((o) => o.observed);
      if (!sameMultiset(e.anyOrder, seen)) {
        failures.push({
          step: e.step,
          message: `step ${e.step + 1}: expected, in any order, ${e.anyOrder.map(describePattern).join(' and ')}; got ${seen.map(describeOutcome).join(' and ')}`,
        });
      }
    }
  }
  const final = c.expectFinal;
  if (final?.receipts !== undefined && trace.snapshot.receipts.length !== final.receipts) {
    failures.push({
      message: `expected ${final.receipts} receipt(s) at the end, found ${trace.snapshot.receipts.length}`,
    });
  }
  const promised = (final?.[spec.table] ?? []) as readonly Row[];
  for (const row of promised) {
    const actual = targetRows(trace.snapshot, spec).find((a) => a.id === row.id);
    if (!actual || !Object.keys(row).every((k) => actual[k] === row[k])) {
      failures.push({
        message: `expected ${spec.noun} ${row.id} to end as ${JSON.stringify(row)}, found ${JSON.stringify(actual ?? null)}`,
      });
    }
  }
  return failures;
}

/** Runs the model alone over the case (groups in lane order) and compares with its expectations. */
export function checkModelAgainstCase(c: CaseFile, spec: OperationSpec): ExpectationFailure[] {
  let state = initialState(c.fixture, spec);
  const observations: Trace['observations'][number][] = [];
  for (const placed of flatten(c.steps)) {
    const t = step(state, placed.event);
    state = t.state;
    if (placed.event.kind === 'call' && t.outcome)
      observations.push({
        step: placed.step,
        lane: placed.lane,
        event: placed.event,
        observed: t.outcome,
      });
  }
  return checkExpectations(c, spec, { observations, snapshot: toSnapshot(state) });
}

function sameMultiset(expected: readonly OutcomePattern[], actual: readonly Observed[]): boolean {
  if (expected.length !== actual.length) return false;
  const left = [...actual];
  for (const e of expected) {
    const i = left.findIndex((a) => matchesPattern(e, a));
    if (i < 0) return false;
    left.splice(i, 1);
  }
  return true;
}
