/**
 * docs/modes-and-engines.md's PostgreSQL plugin (`my-pg-handler.ts`), as a user copies it (it is
 * type-checked with the other examples, `doc-examples.test.ts`): it holds the contract in
 * sequential and concurrent mode on the embedded server; the same plugin with its payload
 * comparison dropped (a reused key replays) fails, so the check can fail.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkHandler } from '../src/api/check-handler.ts';
import { stopEmbeddedPostgres } from '../src/execute/postgres/server.ts';
import { pgPluginFiles } from './doc-examples.ts';
import { makeProject, tempFolder } from './user-project.ts';

/** The plugin's text; `edit` makes a broken variant. */
function plugin(edit?: (text: string) => string): string {
  const text = pgPluginFiles(edit)['my-pg-handler.ts'];
  if (text === undefined) throw new Error('the example is my-pg-handler.ts');
  return text;
}

const temp = tempFolder('receiptcheck-pg-readme-');

describe("docs/modes-and-engines.md's PostgreSQL plugin", () => {
  afterAll(() => stopEmbeddedPostgres());

  it.each(['sequential', 'concurrent'] as const)(
    'passes in %s mode',
    async (mode) => {
      const dir = join(temp(), 'project');
      makeProject(dir, { 'my-pg-handler.ts': plugin() });
      const result = await checkHandler({ handler: join(dir, 'my-pg-handler.ts'), mode, runs: 40 });
      expect(result.verdict).toBe('passed');
    },
    180_000,
  );

  it('with the payload comparison dropped, a reused key replays and the check fails', async () => {
    const dir = join(temp(), 'broken');
    const broken = plugin((t) => t.replace('receipt.payload === payload', 'true'));
    expect(broken).not.toBe(plugin());
    makeProject(dir, { 'my-pg-handler.ts': broken });
    const result = await checkHandler({
      handler: join(dir, 'my-pg-handler.ts'),
      mode: 'sequential',
      runs: 100,
    });
    expect(result.verdict).toBe('failed');
  }, 180_000);
});
