/**
 * Shrinking one mode's failure: fast-check replays the explored case at its index and shrinks
 * from there, running each candidate on the mode's runner. Kept apart from the exploring loop
 * (`check-handler.ts`) because a shrink has rules of its own: the explored run is not run again,
 * and hung candidates share one time budget.
 */
import fc from 'fast-check';
import { isReceiptcheckError } from '../errors.ts';
import type { GeneratedCase } from '../execute/mode-runner.ts';
import type { Step } from '../model/events.ts';
import type { Explored } from './explore.ts';
import type { JudgedRun, JudgedRunner } from './judged-runner.ts';
import { stopOnInterrupt } from './stop-on-interrupt.ts';

/**
 * How long hung candidates may take in all while a failure shrinks, in ms. Each waits out a whole
 * call budget (5 s by default), and a shrink tries dozens; past this, the smallest failing case
 * found so far is reported, saying shrinking was cut short.
 */
export const HANG_SHRINK_MS = 30_000;

/** The smallest failing case fast-check found, where to replay it, and how it got there. */
export interface Shrunk {
  readonly steps: readonly Step[];
  readonly replay: GeneratedCase['replay'];
  /** Its last failing run (the explored one, when nothing smaller failed). */
  readonly run: JudgedRun;
  readonly path: string;
  readonly shrinks: number;
  /** Set when shrinking stopped early, saying why. */
  readonly cut?: string;
}

/**
 * Shrinks the explored failure: fast-check replays the case at its index (`path`) and shrinks
 * from there. Its first run is the explored run itself, not run again: a concurrent failure may
 * not come back, and a hang would cost its budget again. Hung candidates may take
 * `HANG_SHRINK_MS` in all; a time limit left over from exploring bounds the rest.
 */
export async function shrink(
  runner: JudgedRunner,
  arbitrary: fc.Arbitrary<GeneratedCase>,
  found: Extract<Explored, { kind: 'failed' }>,
  o: { readonly seed: number; readonly callTimeoutMs: number; readonly deadline?: number },
): Promise<Shrunk> {
  const foundKey = caseKey(found.case);
  let first = true;
  let fatal: unknown;
  let hungMs = 0;
  let cut: string | undefined;
  let last = { case: found.case, run: found.run };
  const property = fc.asyncProperty(arbitrary, async (c) => {
    if (fatal) return true;
    let run: JudgedRun;
    if (first && caseKey(c) === foundKey) run = found.run;
    else {
      if (hungMs >= HANG_SHRINK_MS) {
        cut ??= `cut short: hung candidates had taken ${Math.round(hungMs / 1000)} s, each a whole call budget of ${o.callTimeoutMs} ms`;
        // fast-check's "interrupted": shrinking ends, keeping the smallest failure so far.
        throw new fc.PreconditionFailure(true);
      }
      const runStarted = performance.now();
      try {
        run = await runner.execute(c.steps, c.replay);
      } catch (thrown) {
        if (!isReceiptcheckError(thrown)) throw thrown;
        fatal = thrown;
        return true;
      }
      if (isHang(run)) hungMs += performance.now() - runStarted;
    }
    first = false;
    if (run.verdict.verdict === 'ok') return true;
    last = { case: c, run };
    return false;
  });
  const timeLeft =
    o.deadline === undefined ? undefined : Math.max(1, o.deadline - performance.now());
  const details = await fc.check(property, {
    seed: o.seed,
    path: String(found.index),
    numRuns: 1,
    plugins: [stopOnInterrupt()],
    ...(timeLeft !== undefined
      ? { interruptAfterTimeLimit: timeLeft, markInterruptAsFailure: false }
      : {}),
  });
  if (fatal) throw fatal;
  if (details.failed && details.errorInstance && !details.counterexample)
    throw details.errorInstance;
  const [shrunk] = details.counterexample ?? [];
  if (!shrunk || !details.counterexamplePath)
    return {
      steps: found.case.steps,
      replay: found.case.replay,
      run: found.run,
      path: String(found.index),
      shrinks: 0,
    };
  return {
    steps: shrunk.steps,
    replay: shrunk.replay,
    run: caseKey(shrunk) === caseKey(last.case) ? last.run : found.run,
    path: details.counterexamplePath,
    shrinks: details.numShrinks,
    ...(cut ? { cut } : {}),
  };
}

/** A case as text, to know one when fast-check hands it back. */
function caseKey(c: GeneratedCase): string {
  return JSON.stringify([c.steps, c.replay]);
}

/** Whether a run stopped at a hung call. */
export function isHang(run: JudgedRun): boolean {
  return run.verdict.verdict === 'failed' && run.verdict.failures.some((f) => f.kind === 'hang');
}
