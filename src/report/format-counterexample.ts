/**
 * Renders a failing sequence for people: numbered steps in plain words (one lane per client for
 * a group released together), expected against actual on the steps that went wrong, the contract
 * rule broken in words, the database difference, and how to reproduce it. Pure: the same input
 * always gives the same text, so it can go to a terminal, a JUnit failure or an thrown Error.
 */

import type { Step } from '../model/events.ts';
import { flatten } from '../model/flatten.ts';
import type { OperationSpec } from '../model/operation.ts';
import { describeOutcome, type Observed } from '../model/outcome.ts';
import { initialState } from '../model/state.ts';
import { step as modelStep } from '../model/step.ts';
import type { Failure } from '../types/verdict.ts';
import { describeEvent } from './describe-event.ts';
import { explainFailure } from './explain-failure.ts';
import { hangMark } from './explain-hang.ts';
import { blamedOperation } from './explain-linearizability.ts';
import { formatInterleaving } from './format-interleaving.ts';
import { formatSnapshotDiff } from './format-snapshot-diff.ts';
import {
  describeInjection,
  type Injection,
  placeKey,
  scheduledInjections,
  storeFailingAt,
} from './injections.ts';
import type { ReadableCase, RenderContext } from './readable-case.ts';
import { type CrashedCall, crashedCalls, observedOutcomes } from './recorded-calls.ts';
import { reproduce } from './reproduce.ts';

/** How many failures are explained before the rest is counted. */
export const FAILURES_SHOWN = 6;

/** The whole counterexample as text, lines joined with `\n`, no trailing newline. */
export function formatCounterexample(c: ReadableCase, context: RenderContext = {}): string {
  return [
    headline(c),
    '',
    'Steps:',
    ...formatSteps(c, context),
    '',
    'What broke:',
    ...formatExplanations(c.failures, c.steps, c.spec),
    '',
    'Database (expected by the model vs found):',
    ...formatDatabase(c.failures),
    '',
    ...formatHandlerOutput(c.handlerOutput),
    ...formatInterleaving(c.detail, { fullSql: context.verbose === true }),
    ...reproduce(c, context),
  ].join('\n');
}

/** One line per failure (capped): where it happened and the rule it broke, in words. */
export function formatExplanations(
  failures: readonly Failure[],
  steps: readonly Step[],
  spec: OperationSpec,
): string[] {
  const lines = failures.slice(0, FAILURES_SHOWN).map((f) => {
    const e = explainFailure(f, spec);
    const instead =
      f.kind === 'outcome' && f.orInstead && f.orInstead.length > 0
        ? ` (or ${lanesText(f.orInstead)} instead: another order explains this answer and blames ${lanesText(f.orInstead)})`
        : '';
    return `  - ${where(f, steps)}${e.rule ? `rule ${e.rule}: ` : ''}${e.text}${instead}`;
  });
  if (failures.length > FAILURES_SHOWN)
    lines.push(`  … and ${failures.length - FAILURES_SHOWN} more`);
  return lines.length > 0
    ? lines
    : ['  - nothing: every outcome, the database and every invariant agree'];
}

/** What the handler printed (kept, not shown on stdout while it ran), indented; nothing when it printed nothing. */
export function formatHandlerOutput(output: string | undefined): string[] {
  if (!output) return [];
  const lines = output.replace(/\n$/, '').split('\n');
  return [
    'Handler output (its stdout and stderr during this run):',
    ...lines.map((l) => `  | ${l}`),
    '',
  ];
}

/** The snapshot difference among `failures`, indented, or `no difference`. */
export function formatDatabase(failures: readonly Failure[]): string[] {
  const hang = failures.find((f) => f.kind === 'hang');
  if (hang?.kind === 'hang')
    return [`  not compared: the run stopped at the call that hung (step ${hang.step + 1})`];
  const diff = failures.find((f) => f.kind === 'snapshot');
  if (diff?.kind !== 'snapshot') return ['  no difference'];
  const lines = formatSnapshotDiff(diff.differences).map((l) => `  ${l}`);
  if (diff.faulted && diff.faulted.length > 0) {
    const calls = diff.faulted.map((p) => `step ${p.step + 1} lane ${p.lane + 1}`).join(', ');
    lines.push(
      `  (expected as if the faulted call at ${calls} took effect; the checker would also accept it changing nothing, and the database fits neither)`,
    );
  }
  return lines;
}

/**
 * The numbered steps, with what the handler answered at every call (the run's answers; a case
 * kept without them shows, in sequential mode, the model's outcome, which the handler matched, or
 * in the race modes what the run's record says the clients saw), what was injected into it, and
 * expected vs actual where they differ.
 */
export function formatSteps(c: ReadableCase, options: { verbose?: boolean } = {}): string[] {
  const bad = new Map<string, Extract<Failure, { kind: 'outcome' }>>();
  for (const f of c.failures) if (f.kind === 'outcome') bad.set(`${f.step}:${f.lane}`, f);
  const hang = c.failures.find((f) => f.kind === 'hang');
  const hungAt = hang?.kind === 'hang' ? `${hang.step}:${hang.lane}` : undefined;
  const answers = observedOutcomes(c);
  // In sequential mode a group runs in lane order, so the model's outcome per call is exact: it
  // stands in for an answer the case did not keep.
  const modelled = c.mode === 'sequential' ? modelOutcomes(c) : new Map<string, Observed>();
  const crashes = crashedCalls(c.detail);
  const blamed = new Set(
    c.failures.flatMap((f) => {
      const op = f.kind === 'linearizability' ? blamedOperation(f) : undefined;
      return op ? [op] : [];
    }),
  );
  const blamedAt = new Map([...blamed].map((op) => [`${op.step}:${op.lane}`, op]));
  const injected = scheduledInjections(c.detail);
  const storeFailing = storeFailingAt(c.steps);
  const lines: string[] = [];
  c.steps.forEach((s, i) => {
    const n = `${i + 1}.`.padEnd(4);
    const events = s.kind === 'concurrent' ? s.events : [s];
    if (s.kind === 'concurrent') lines.push(`  ${n}at the same moment, on separate connections:`);
    events.forEach((event, lane) => {
      const prefix = s.kind === 'concurrent' ? `${' '.repeat(6)}lane ${lane + 1}  ` : `  ${n}`;
      const indent = ' '.repeat(prefix.length);
      lines.push(`${prefix}${describeEvent(event, c.fixture, c.spec)}`);
      if (hang?.kind === 'hang' && hungAt === `${i}:${lane}`) {
        lines.push(`${indent}${hangMark(hang)}`);
        return;
      }
      if (hang?.kind === 'hang' && i > hang.step) {
        lines.push(`${indent}(not run: the run stopped at the hang)`);
        return;
      }
      const failure = bad.get(`${i}:${lane}`);
      const stuck = blamedAt.get(`${i}:${lane}`);
      for (const note of injectionNotes(injected.get(placeKey(i, lane)), failure)) {
        lines.push(`${indent}↯ ${note}`);
      }
      const store = storeFailing[i];
      if (store && event.kind === 'call' && event.delivery !== 'lostRequest')
        lines.push(`${indent}↯ ${describeInjection(store)}`);
      const crash = crashes.get(placeKey(i, lane));
      if (crash && !injected.get(placeKey(i, lane))?.some((j) => j.kind === 'crash'))
        lines.push(`${indent}↯ crashed: the client gets no answer`);
      if (failure) {
        lines.push(`${indent}✗ expected ${expectedText(failure)}`);
        lines.push(`${indent}  actual   ${describeOutcome(failure.actual)}`);
        if (failure.orInstead && failure.orInstead.length > 0)
          lines.push(
            `${indent}  (or ${lanesText(failure.orInstead)} answered wrongly instead: ${orInsteadText(failure.orInstead)})`,
          );
        if (options.verbose) lines.push(...stackLines(failure.actual, `${indent}    `));
        return;
      }
      if (crash) {
        lines.push(`${indent}→ ${crashText(crash)}`);
        return;
      }
      if (stuck?.expected && stuck.observed) {
        lines.push(
          `${indent}✗ expected ${describeOutcome(stuck.expected)} (after the order that fits)`,
        );
        lines.push(`${indent}  actual   ${describeOutcome(stuck.observed)}`);
        if (options.verbose) lines.push(...stackLines(stuck.observed, `${indent}    `));
        return;
      }
      const o = answers.get(`${i}:${lane}`) ?? modelled.get(`${i}:${lane}`);
      if (o && o.kind !== 'notSent')
        lines.push(
          `${indent}→ ${describeOutcome(o)}${event.kind === 'call' && event.delivery === 'lostResponse' ? ' (the client never sees it)' : ''}`,
        );
    });
  });
  return lines;
}

/**
 * What the checker accepts from a call: the model's outcome (or either of two where the contract
 * allows both), or for a call with a statement fault injected, also `error` with nothing changed
 * (see `check-scheduled-run.ts`).
 */
function expectedText(f: Extract<Failure, { kind: 'outcome' }>): string {
  const model = f.alsoAllowed
    ? `${describeOutcome(f.expected)} or ${describeOutcome(f.alsoAllowed)}`
    : describeOutcome(f.expected);
  if (!f.faulted) return model;
  if (f.expected.kind === 'error') return `${model} with nothing changed (the fault surfaced)`;
  return `error(…) with nothing changed (the fault surfaced), or ${model} (had the handler recovered from the fault)`;
}

/**
 * The notes for what was injected into one call. A crash grant on a call that also answered is
 * the harness stopping a lane that never finished, which its answer already says.
 */
function injectionNotes(
  injections: readonly Injection[] | undefined,
  failure: Extract<Failure, { kind: 'outcome' }> | undefined,
): string[] {
  return (injections ?? [])
    .filter((i) => !(i.kind === 'crash' && failure !== undefined))
    .map(describeInjection);
}

/** An unexpected error's stack, indented, without its first line (the message, shown above). */
function stackLines(o: Observed, indent: string): string[] {
  if (o.kind !== 'unexpected' || !o.stack) return [];
  const frames = o.stack.split('\n').filter((l) => /^\s*at\s/.test(l));
  return frames.length > 0 ? frames.map((l) => `${indent}${l.trim()}`) : [];
}

function headline(c: ReadableCase): string {
  const n = c.steps.length;
  const found =
    c.runsToFailure !== undefined
      ? `, found at run ${c.runsToFailure}${c.shrinks !== undefined ? ` and shrunk ${c.shrinks} times` : ''}${c.shrinkCut ? ` (then ${c.shrinkCut})` : ''}`
      : '';
  return `Counterexample for ${c.handlerName} (${c.mode} mode): ${n} step${n === 1 ? '' : 's'}${found}`;
}

function modelOutcomes(c: ReadableCase): Map<string, Observed> {
  const out = new Map<string, Observed>();
  let state = initialState(c.fixture, c.spec);
  for (const placed of flatten(c.steps)) {
    const t = modelStep(state, placed.event);
    state = t.state;
    if (t.outcome) out.set(`${placed.step}:${placed.lane}`, t.outcome);
  }
  return out;
}

/** What the checker made of a crashed call, so the expectations after it can be read. */
function crashText(c: CrashedCall): string {
  if (!c.committed) return 'no answer: it crashed before any commit, so it changed nothing';
  if (c.readAs)
    return `no answer: it crashed after a commit, read as having taken effect, as ${describeOutcome(c.readAs)}`;
  if (c.leftClaim)
    return 'no answer: it crashed after a commit, read as having left its claim (policy claimExpiry): that commit was the claim, and the key answers as in progress until the claim expires';
  return 'no answer: it crashed after a commit and is read here as having changed nothing (a reading the contract allows: a call that commits twice, a claim and then its write, can die between the two)';
}

/** `lane 2` or `lanes 2 and 3` (1-based). */
function lanesText(lanes: readonly number[]): string {
  const names = lanes.map((l) => String(l + 1));
  return names.length === 1
    ? `lane ${names[0]}`
    : `lanes ${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** Why a call's blame may fall on other lanes of its step. */
function orInsteadText(lanes: readonly number[]): string {
  return `an order of this step that blames as few calls explains this answer and blames ${lanesText(lanes)}; no order explains all of them`;
}

function where(f: Failure, steps: readonly Step[]): string {
  if (f.kind === 'outcome') {
    const group = steps[f.step]?.kind === 'concurrent';
    return `step ${f.step + 1}${group ? ` lane ${f.lane + 1}` : ''}: `;
  }
  if (f.kind === 'invariant' && f.step !== undefined) return `after step ${f.step + 1}: `;
  if (f.kind === 'hang') {
    if (f.event === undefined) return 'after the last step: ';
    const group = steps[f.step]?.kind === 'concurrent';
    return `step ${f.step + 1}${group ? ` lane ${f.lane + 1}` : ''}: `;
  }
  return '';
}
