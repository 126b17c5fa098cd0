/**
 * A handler that stores a refusal in its receipts table (and replays it) without declaring
 * `policy.storesRefusals`: what it stored is its behaviour, so every mode reports a shrunk
 * counterexample whose failures name the refused call that wrote the receipt, not an
 * `E_SNAPSHOT_SHAPE` error (that is for a snapshot function that returns the wrong shape). The
 * command's exit code for it is in `cli/main.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import type { Step } from '../model/events.ts';
import type { Failure } from '../types/verdict.ts';
import { checkHandler } from './check-handler.ts';

const STORES_REFUSALS = 'testing/handlers/findings/stores-refusals.ts';

/** The steps the invariant failures blame. */
function invariantSteps(failures: readonly Failure[]): number[] {
  return failures.flatMap((f) => (f.kind === 'invariant' && f.step !== undefined ? [f.step] : []));
}

describe('a handler that stores refusals as receipts', () => {
  it.each(['sequential', 'scheduled', 'concurrent'] as const)(
    '%s mode: a shrunk counterexample naming the refused call that wrote the receipt',
    async (mode) => {
      const r = await checkHandler({ handler: STORES_REFUSALS, mode, runs: 40, seed: 42 });
      expect(r.verdict).toBe('failed');
      const cx = r.counterexample;
      expect(cx?.shrinks).toBeGreaterThan(0);
      const steps = cx?.steps ?? [];
      expect(steps.length).toBeLessThanOrEqual(3);
      const failures = cx?.failures ?? [];
      // The extra receipt is in the database's difference, holding the refusal as stored.
      const snapshot = failures.find((f) => f.kind === 'snapshot');
      expect(snapshot?.kind === 'snapshot' && snapshot.differences).toEqual([
        expect.objectContaining({
          what: 'receipt',
          actual: expect.objectContaining({ result: { kind: 'refused', reason: 'conflict' } }),
        }),
      ]);
      // The invariant blames the call that was refused and still left a receipt.
      const [blamed] = invariantSteps(failures);
      expect(blamed).toBeDefined();
      const call = steps[blamed as number] as Step;
      expect(call.kind).toBe('call');
      const message = failures.find((f) => f.kind === 'invariant' && f.step === blamed);
      expect(message?.kind === 'invariant' && message.message).toMatch(
        new RegExp(
          `stores result \\(kind "refused" reason "conflict"\\).*at step ${(blamed as number) + 1} answered refused\\(conflict\\)`,
        ),
      );
    },
  );
});
