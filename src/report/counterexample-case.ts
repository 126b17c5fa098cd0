/**
 * Turns a counterexample into a case file (`case-file.ts`), the same format as a named scenario:
 * copied into `scenarios/`, it becomes a regression test; `receiptcheck replay` re-runs it. Pure;
 * `api/counterexample-store.ts` writes it.
 */

import { ReceiptcheckError } from '../errors.ts';
import type { CaseFile } from '../types/case-file.ts';
import type { ScheduledReproduction } from '../types/replay.ts';
import type { Counterexample } from '../types/results.ts';
import { parseSchedule } from '../types/schedule.ts';
import { explainFailure } from './explain-failure.ts';

/**
 * The case file for a counterexample; the handler stays as the user gave it (a name or a path).
 * A concurrent counterexample's scheduled reproduction, when one was found, goes in as
 * `"scheduled"`, so the one file replays deterministically and `replay` tries it first.
 */
export function counterexampleToCase(
  cx: Counterexample,
  scheduled?: ScheduledReproduction,
): CaseFile {
  const first = cx.failures[0];
  const why = first ? explainFailure(first, cx.spec) : undefined;
  return {
    name: `${cx.handlerName}: counterexample (seed ${cx.seed})`,
    description: why
      ? `${why.rule ? `breaks rule ${why.rule}: ` : ''}${why.text}`
      : 'a shrunk failing sequence',
    handler: cx.handler,
    mode: cx.mode,
    fixture: cx.fixture,
    steps: cx.steps,
    expectations: [],
    extra: {
      seed: cx.seed,
      path: cx.path,
      runsToFailure: cx.runsToFailure,
      shrinks: cx.shrinks,
      ...(cx.shrinkCut ? { shrinkCut: cx.shrinkCut } : {}),
      failures: cx.failures,
      ...(cx.detail !== undefined ? { detail: cx.detail } : {}),
      ...(cx.answers ? { answers: cx.answers } : {}),
      ...(cx.handlerOutput ? { handlerOutput: cx.handlerOutput } : {}),
      ...(scheduled ? { scheduled } : {}),
    },
  };
}

/**
 * The scheduled reproduction saved with a case (`"scheduled"`), or undefined when there is none.
 * Throws `E_BAD_COUNTEREXAMPLE` when one is there but malformed.
 */
export function scheduledReproductionOf(
  extra: Readonly<Record<string, unknown>>,
): ScheduledReproduction | undefined {
  const raw = extra.scheduled;
  if (raw === undefined) return undefined;
  const bad = (why: string): never => {
    throw new ReceiptcheckError(
      'E_BAD_COUNTEREXAMPLE',
      `the case's scheduled reproduction ("scheduled") ${why}`,
    );
  };
  if (typeof raw !== 'object' || raw === null) return bad('must be an object');
  const r = raw as Record<string, unknown>;
  const parsed = parseSchedule(r.schedule);
  if ('error' in parsed) return bad(`has a malformed schedule: ${parsed.error}`);
  const count = (v: unknown) => (Number.isSafeInteger(v) ? (v as number) : 0);
  return {
    schedule: parsed.schedule,
    traceHash: typeof r.traceHash === 'string' ? r.traceHash : '',
    foundAt: count(r.foundAt),
    schedulesMax: count(r.schedulesMax),
    ...(r.serverOrdered === true ? { serverOrdered: true as const } : {}),
  };
}

/**
 * `cx` as data, for JSON: without its spec, which is code; the operation stays named in the
 * fixture, as in a saved case.
 */
export function savedCounterexample(cx: Counterexample): Omit<Counterexample, 'spec'> {
  const { spec: _spec, ...saved } = cx;
  return saved;
}

/**
 * A stable file name: the same handler, mode and seed give the same name; a finding's id
 * (all-findings mode, several findings per seed) goes last.
 */
export function counterexampleFileName(cx: Counterexample, findingId?: string): string {
  const safe = cx.handlerName.replace(/[^A-Za-z0-9_-]+/g, '-');
  return `${safe}-${cx.mode}-seed${cx.seed}${findingId ? `-${findingId}` : ''}.json`;
}
