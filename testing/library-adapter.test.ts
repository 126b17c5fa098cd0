/**
 * docs/libraries.md's "Writing an adapter for a real library", run as a user would run it: its adapter
 * (`my-library-adapter.ts`, express-idempotency in an Express 5 app) written into a fresh project
 * outside `src/`, importing only the package's public entries (`receiptcheck`,
 * `receiptcheck/adapters`) besides the library it wraps (type-checked with the other examples,
 * `doc-examples.test.ts`), passing sequential mode
 * under its declared policy, reproducing findings A, C and D of docs/findings.md from the committed
 * case files, as the bundled plugin built from the same kit does, and holding the case of a key
 * reuse beside a withdrawn claim (once finding B), which its declaration allows.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCaseFile } from '../src/api/load-case-file.ts';
import { replayCase } from '../src/api/replay-case.ts';
import { docBlock, ROOT } from './doc-blocks.ts';
import { libraryAdapterFiles, linkDependencies } from './doc-examples.ts';
import { expectPasses, makeProject, tempFolder } from './user-project.ts';

const ADAPTER = 'my-library-adapter.ts';
const PUBLIC_ENTRIES = ['receiptcheck', 'receiptcheck/adapters'];
const FINDINGS = join(ROOT, 'src', 'handlers', 'libraries', 'fixtures', 'express-idempotency');

/** The modules a source imports, by specifier. */
function importsOf(text: string): string[] {
  return [...text.matchAll(/from '([^']+)'/g)].map((m) => m[1] as string);
}

describe("docs/libraries.md's adapter for a real library", () => {
  const dir = tempFolder('receiptcheck-adapter-');
  // The adapter imports express and express-idempotency by name, as from a user's install.
  beforeAll(() => {
    const files = libraryAdapterFiles();
    if (!(ADAPTER in files)) throw new Error(`the example is ${ADAPTER}`);
    makeProject(dir(), files);
    linkDependencies(dir());
  });

  it('imports only the public entries and the library it wraps', () => {
    const imports = importsOf(docBlock(ADAPTER).text);
    expect(imports.filter((m) => m.startsWith('receiptcheck'))).toEqual(
      expect.arrayContaining(PUBLIC_ENTRIES),
    );
    const allowed = [...PUBLIC_ENTRIES, 'express', 'express-idempotency'];
    expect(imports.filter((m) => !allowed.includes(m))).toEqual([]);
  });

  it('passes sequential mode under its declared policy', async () => {
    await expectPasses(join(dir(), ADAPTER), 'sequential', 100);
  });

  it.each(['a-identical-first-attempts-500', 'c-store-after-send', 'd-crash-locks-key'])(
    'reproduces the finding of %s, as the bundled plugin does',
    async (name) => {
      const c = loadCaseFile(join(FINDINGS, `${name}.json`));
      const replay = await replayCase(c, { handler: join(dir(), ADAPTER) });
      expect(replay.verdict).toBe('reproduced');
    },
  );

  it('holds the case of a key reuse beside a withdrawn claim, as the bundled plugin does', async () => {
    const c = loadCaseFile(join(FINDINGS, 'b-mismatch-racing-withdrawn-claim.json'));
    const replay = await replayCase(c, { handler: join(dir(), ADAPTER) });
    expect(replay.verdict).toBe('held');
  });
});
