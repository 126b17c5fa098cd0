/**
 * A call that returns with its transaction still open fails, in every mode and on both engines:
 * the harness rolls that transaction back to go on, which hid the bug (a handler that returns
 * early on a refusal without `ROLLBACK` passed every mode; in a service its locks stay held and
 * the next request on the connection runs inside it). The fixtures are the references with a
 * transaction begun again after each refusal from inside one: every answer is right.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LEFT_OPEN } from '../model/outcome.ts';
import { formatCounterexample } from '../report/format-counterexample.ts';
import { triageLine, triageOf } from '../report/triage.ts';
import type { Mode } from '../types/mode.ts';
import { checkHandler } from './check-handler.ts';

const FIXTURES = join(import.meta.dirname, 'fixtures');

describe('a call that returns with its transaction open', () => {
  it.each([
    ['refusal-left-open.ts', 'sequential'],
    ['refusal-left-open.ts', 'concurrent'],
    ['refusal-left-open.ts', 'scheduled'],
    ['pg-refusal-left-open.ts', 'sequential'],
    ['pg-refusal-left-open.ts', 'concurrent'],
    ['pg-refusal-left-open.ts', 'scheduled'],
  ] as const)(
    '%s fails in %s mode, its answer kept in the message',
    async (file, mode) => {
      const r = await checkHandler({
        handler: join(FIXTURES, file),
        mode: mode as Mode,
        runs: 60,
        seed: 1,
      });
      const cx = r.counterexample;
      if (!cx) throw new Error(`${file} passed ${mode} mode`);
      const text = formatCounterexample(cx);
      expect(text).toContain(`actual   unexpected error(${LEFT_OPEN} (it answered refused(`);
      // No policy switch allows it: the triage says to end the transaction, whatever the mode.
      expect(triageLine(triageOf(cx))).toMatch(
        /no policy switch allows a call to return with its transaction open; end it/,
      );
      // Concurrent mode's failure is the history's, explained as such.
      if (mode !== 'concurrent')
        expect(text).toContain(
          'a call must end its transaction (COMMIT or ROLLBACK) before it returns',
        );
    },
    60_000,
  );
});
