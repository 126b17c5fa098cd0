/**
 * A user's own tool that writes two rows, `move-stock` (fields from zod, both bins targets, an
 * `out-of-stock` precondition), written from docs/plugins.md with the public API: its correct
 * handler holds in every mode, and the same handler with the destination bin's workspace left
 * unchecked is caught, with a counterexample that shows both bins it changed.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkHandler } from '../src/api/check-handler.ts';
import { formatCounterexample } from '../src/report/format-counterexample.ts';
import { docBlock } from './doc-blocks.ts';

const handler = (name: string) =>
  fileURLToPath(new URL(`./handlers/move-stock/${name}.ts`, import.meta.url));

describe('a user-written move-stock tool, writing two rows', () => {
  it('is the spec docs/plugins.md shows, word for word', () => {
    const file = readFileSync(handler('move-stock'), 'utf8');
    const code = file.slice(file.indexOf('*/\n') + 3);
    const shown = docBlock('move-stock.ts')
      .text.replace(/^\/\/ move-stock\.ts\n/, '')
      .replace("from 'receiptcheck/zod'", "from '../../../src/zod.ts'")
      .replace("from 'receiptcheck'", "from '../../../src/index.ts'");
    expect(shown.trim()).toBe(code.trim());
  });

  it.each([
    ['sequential', 200],
    ['scheduled', 150],
    ['concurrent', 20],
  ] as const)('the correct handler holds in %s mode', async (mode, runs) => {
    const r = await checkHandler({ handler: handler('handler'), mode, runs, seed: 1 });
    expect(r.counterexample?.failures ?? []).toEqual([]);
    expect(r.verdict).toBe('passed');
  });

  it('a destination in another workspace is caught, and the report shows both bins', async () => {
    const r = await checkHandler({
      handler: handler('destination-unchecked'),
      mode: 'sequential',
      seed: 1,
    });
    expect(r.verdict).toBe('failed');
    const text = formatCounterexample(r.counterexample as NonNullable<typeof r.counterexample>);
    expect(text).toMatch(/fromBinId \d+, toBinId 2\d/);
    expect(text).toMatch(/expected refused\(unavailable\)|refused\(unavailable\)/);
    expect(text).toMatch(/bin 1: expected stock 40 in team-a, found stock \d+ in team-a/);
    expect(text).toMatch(/bin 2\d: expected stock \d+ in team-b, found stock \d+ in team-b/);
  });
});
