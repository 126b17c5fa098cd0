/**
 * `assertHandler` from vitest, as a user would call it: it resolves on the reference and throws
 * a readable counterexample (numbered steps, expected vs actual, the rule) on a mutant.
 */
import { describe, expect, it } from 'vitest';
import { assertHandler, CounterexampleError } from '../index.ts';

describe('assertHandler', () => {
  it('resolves on the reference handler', async () => {
    const result = await assertHandler({ handler: 'reference', runs: 100 });
    expect(result.verdict).toBe('passed');
  });

  it('throws the rendered counterexample on the version-before-receipt mutant', async () => {
    const thrown = await assertHandler({
      handler: 'src/handlers/mutants/version-before-receipt.ts',
    }).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(CounterexampleError);
    const message = (thrown as Error).message;
    // Step 1 may be a plain call or a group of calls released together (one lane per line).
    expect(message).toMatch(/^ {2}1\. {2}/m);
    expect(message).toMatch(/\S+@team-\w (sends|retries) r\d/);
    expect(message).toContain('✗ expected ok(replayed');
    expect(message).toContain('actual   refused(conflict)');
    expect(message).toContain('rule 7');
    expect(message).toContain('pass { seed: 42 }');
    expect((thrown as CounterexampleError).counterexample.steps.length).toBeLessThanOrEqual(4);
  });
});
