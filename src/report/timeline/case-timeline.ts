/**
 * Reads a case file (a scenario or a saved counterexample) as a case to draw: a counterexample
 * brings its failures, seed and the run's detail (schedule grants or real-thread history); a
 * scenario brings only its steps and promises, drawn as not run. Pure.
 */
import type { OperationSpec } from '../../model/operation.ts';
import type { CaseFile } from '../../types/case-file.ts';
import type { CaseResult } from '../../types/results.ts';
import type { Failure } from '../../types/verdict.ts';
import { savedAnswers } from '../recorded-calls.ts';
import type { TimelineCase } from './build-timeline.ts';

/** The case to draw for a parsed case file of `spec`, the operation it names. */
export function caseFileTimelineCase(c: CaseFile, spec: OperationSpec): TimelineCase {
  const x = c.extra;
  const ran = Array.isArray(x.failures);
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const seed = num(x.seed);
  const runsToFailure = num(x.runsToFailure);
  const shrinks = num(x.shrinks);
  const answers = savedAnswers(x.answers);
  return {
    name: c.name,
    description: c.description,
    handler: c.handler,
    handlerName: c.handler,
    ...(c.handlerNamed === false ? { handlerNamed: false as const } : {}),
    mode: c.mode,
    fixture: c.fixture,
    spec,
    steps: c.steps,
    failures: ran ? (x.failures as Failure[]) : [],
    expectations: c.expectations,
    ...(c.expectFinal ? { expectFinal: c.expectFinal } : {}),
    ...(seed !== undefined ? { seed } : {}),
    ...(typeof x.path === 'string' ? { path: x.path } : {}),
    ...(runsToFailure !== undefined ? { runsToFailure } : {}),
    ...(shrinks !== undefined ? { shrinks } : {}),
    ...(x.detail !== undefined ? { detail: x.detail } : {}),
    ...(answers ? { answers } : {}),
    ran,
  };
}

/**
 * The case to draw for a replay of `c`: the replayed run's failures, every call's answer and the
 * run's detail (a scheduled run's grants), with the file's name and steps.
 */
export function replayTimelineCase(c: CaseFile, result: CaseResult): TimelineCase {
  return {
    name: `${c.name} (replayed)`,
    description: c.description,
    handler: result.handler,
    handlerName: result.handler,
    mode: result.mode,
    fixture: c.fixture,
    spec: result.spec,
    steps: c.steps,
    failures: result.failures,
    answers: result.trace.observations,
    expectations: c.expectations,
    ...(result.detail !== undefined ? { detail: result.detail } : {}),
  };
}
