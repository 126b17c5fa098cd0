/**
 * What a race mode's run recorded about each call, read by shape from the counterexample's
 * `detail` (which a saved case file carries as plain JSON): the answer every client saw, and the
 * calls that crashed with how the verdict read them. Keyed by `placeKey`.
 */
import type { Observed } from '../model/outcome.ts';
import { placeKey } from './injections.ts';
import type { ReadableCase } from './readable-case.ts';

/**
 * What the clients saw in a race mode's run: every call's answer, from a scheduled run's recorded
 * call ends or a concurrent run's history (read by shape), else from a linearizability failure.
 */
export function observedOutcomes(c: ReadableCase): Map<string, Observed> {
  const out = new Map<string, Observed>();
  for (const f of c.failures)
    if (f.kind === 'linearizability')
      for (const op of [...f.longestPrefix, ...f.stuck])
        if (op.observed) out.set(placeKey(op.step, op.lane), op.observed);
  const d = (c.detail ?? {}) as { ends?: unknown; history?: unknown; places?: unknown };
  if (Array.isArray(d.ends))
    for (const e of d.ends as { step: number; lane: number; end?: { observed?: Observed } }[])
      if (e?.end?.observed) out.set(placeKey(e.step, e.lane), e.end.observed);
  if (Array.isArray(d.history) && Array.isArray(d.places))
    for (const e of d.history as { id: number; observed?: Observed }[]) {
      const at = (d.places as ({ step: number; lane: number } | undefined)[])[e?.id];
      if (at && e.observed) out.set(placeKey(at.step, at.lane), e.observed);
    }
  return out;
}

/** A scheduled run's call that crashed, as its recorded end says (read by shape). */
export interface CrashedCall {
  readonly committed: boolean;
  /** The outcome the verdict read it as having had (it took effect); absent: it changed nothing. */
  readonly readAs?: Observed;
  /** Read as having left its claim (policy `claimExpiry`), and nothing else. */
  readonly leftClaim?: boolean;
}

/** The calls of a scheduled run that crashed, by `placeKey`; empty for other modes. */
export function crashedCalls(detail: unknown): Map<string, CrashedCall> {
  const out = new Map<string, CrashedCall>();
  const ends = (detail as { ends?: unknown } | null | undefined)?.ends;
  if (!Array.isArray(ends)) return out;
  for (const e of ends as {
    step: number;
    lane: number;
    end?: { kind?: string; committed?: boolean };
    readAs?: Observed;
    leftClaim?: boolean;
  }[])
    if (e?.end?.kind === 'crashed')
      out.set(placeKey(e.step, e.lane), {
        committed: e.end.committed === true,
        ...(e.readAs ? { readAs: e.readAs } : {}),
        ...(e.leftClaim === true ? { leftClaim: true } : {}),
      });
  return out;
}
