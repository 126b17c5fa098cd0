/**
 * Where `saveCounterexample` writes: a case file named for the handler's `name`, mode and seed,
 * which a later run of the same handler overwrites, but not a case of another handler that
 * shares the name (two variants of one plugin, copied side by side): that one is kept, and the
 * new case goes beside it with `-2`.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { checkHandler } from './check-handler.ts';
import { saveCounterexample } from './counterexample-store.ts';

const tmp = mkdtempSync(join(tmpdir(), 'receiptcheck-store-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

it('keeps the case of another handler of the same name, and overwrites its own', async () => {
  const r = await checkHandler({ handler: 'version-before-receipt', mode: 'sequential' });
  const cx = r.counterexample;
  if (!cx) throw new Error('the mutant was not caught');
  const save = async (handler: string) =>
    (await saveCounterexample({ ...cx, handler }, 'cx', tmp)).path;
  expect(await save('./variant-a.ts')).toBe(
    join('cx', 'version-before-receipt-sequential-seed42.json'),
  );
  expect(await save('./variant-b.ts')).toBe(
    join('cx', 'version-before-receipt-sequential-seed42-2.json'),
  );
  expect(await save('./variant-a.ts')).toBe(
    join('cx', 'version-before-receipt-sequential-seed42.json'),
  );
  expect(await save('./variant-b.ts')).toBe(
    join('cx', 'version-before-receipt-sequential-seed42-2.json'),
  );
  expect(readdirSync(join(tmp, 'cx'))).toHaveLength(2);
});
