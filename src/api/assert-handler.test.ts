/**
 * `assertHandler` from vitest, as a user would call it: it resolves on the reference and throws
 * a readable counterexample (numbered steps, expected vs actual, the rule) on a mutant, saved as
 * a case file with its timeline page beside it.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assertHandler, CounterexampleError, parseCaseFile } from '../index.ts';

const out = mkdtempSync(join(tmpdir(), 'receiptcheck-assert-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('assertHandler', () => {
  it('resolves on the reference handler', async () => {
    const result = await assertHandler({ handler: 'reference', runs: 100 });
    expect(result.verdict).toBe('passed');
  });

  it('throws the rendered counterexample on the version-before-receipt mutant', async () => {
    const thrown = await assertHandler({
      handler: 'src/handlers/operations/set-interval/sqlite/mutants/version-before-receipt.ts',
      out,
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

  it('saves the counterexample as a case file that names the handler and replays', async () => {
    const thrown = (await assertHandler({
      handler: 'src/handlers/operations/set-interval/sqlite/mutants/version-before-receipt.ts',
      out,
    }).catch((e: unknown) => e)) as CounterexampleError;
    const saved = thrown.savedPath ?? '';
    expect(existsSync(saved)).toBe(true);
    expect(thrown.message).toContain(`npx receiptcheck replay ${saved}`);
    const c = parseCaseFile(readFileSync(saved, 'utf8'), saved);
    expect(c.handler).toContain('version-before-receipt');
    expect(c.steps).toEqual(thrown.counterexample.steps);
    // Its timeline page sits beside it, named in the message, and names the file to replay.
    expect(thrown.timelinePath).toBe(saved.replace(/\.json$/, '.html'));
    expect(thrown.message).toContain(`timeline: ${thrown.timelinePath}   (open it in a browser)`);
    const page = readFileSync(thrown.timelinePath ?? '', 'utf8');
    expect(page).toContain('class="lane"');
    expect(page).toContain(`npx receiptcheck replay ${saved}`);
  });

  it('saves nothing with out: false', async () => {
    const thrown = (await assertHandler({
      handler: 'src/handlers/operations/set-interval/sqlite/mutants/version-before-receipt.ts',
      out: false,
    }).catch((e: unknown) => e)) as CounterexampleError;
    expect(thrown.savedPath).toBeUndefined();
    expect(thrown.timelinePath).toBeUndefined();
  });
});
