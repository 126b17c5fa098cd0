/**
 * A TypeScript plugin imported where no loader is registered (receiptcheck's build in a plain Node
 * program, as installed) shares the program's copy of receiptcheck: what it imports from the
 * package is what the harness has, error classes included. Run in a child process on the test
 * run's build (`testing/built-package.ts`): vitest registers a loader of its own in this one.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { built } from '../../../testing/built-package.ts';

const dir = mkdtempSync(join(tmpdir(), 'rc-import-plugin-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const source = (rel: string) => fileURLToPath(new URL(rel, import.meta.url));
const index = pathToFileURL(built(source('../../index.ts'))).href;
const importer = pathToFileURL(built(source('./import-plugin-module.ts'))).href;

describe('a TypeScript plugin imported from the build', () => {
  it.each(['module', 'commonjs'] as const)(
    'in a "type": "%s" project: loads (and in an ES module one, shares the copy)',
    (type) => {
      const project = join(dir, type);
      mkdirSync(project);
      writeFileSync(join(project, 'package.json'), JSON.stringify({ private: true, type }));
      writeFileSync(
        join(project, 'plugin.ts'),
        `import { ReceiptcheckError } from '${index}';\nconst errors: unknown = ReceiptcheckError;\nexport default { errors };\n`,
      );
      const program = [
        `import { ReceiptcheckError } from '${index}';`,
        `import { importPluginModule } from '${importer}';`,
        `const mod = await importPluginModule(${JSON.stringify(join(project, 'plugin.ts'))});`,
        'console.log(JSON.stringify({ loaded: !!mod.default, same: mod.default.errors === ReceiptcheckError }));',
      ].join('\n');
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', program], {
        cwd: project,
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(r.status, r.stderr).toBe(0);
      const seen = JSON.parse(r.stdout) as { loaded: boolean; same: boolean };
      expect(seen.loaded).toBe(true);
      // A CommonJS plugin's imports go through tsx's CommonJS hook, which compiles the package's
      // ES modules again: a copy of its own there still.
      if (type === 'module') expect(seen.same).toBe(true);
    },
  );
});
