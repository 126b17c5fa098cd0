/**
 * A TypeScript plugin in ES module syntax, in a `"type": "commonjs"` project (what `npm init -y`
 * writes under npm 11): the `receiptcheck` command loads it, in this thread and on worker
 * threads, in every mode. There Node reads a `.ts` file as CommonJS, and with only tsx's ES module
 * hook registered it failed as a require(esm) cycle. Without `export default` it exports nothing,
 * and is refused as having no default export. The plugin is the README's, importing this
 * checkout's sources for `receiptcheck`; the built package, `tsImport` and the recipes in such a
 * project are `src/package.test.ts`'s.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { docBlock, ROOT } from './doc-blocks.ts';
import { localImports, makeProject, outcomeOf, receiptcheck, tempFolder } from './user-project.ts';

const temp = tempFolder('receiptcheck-commonjs-');
const project = () => join(temp(), 'project');

beforeAll(() => {
  const plugin = localImports(docBlock('my-handler.ts').text, "the README's my-handler.ts");
  const handler = readFileSync(join(ROOT, 'testing', 'readme-example', 'src', 'set-interval.ts'));
  // The same plugin with its `export default` forgotten: as CommonJS it exports nothing.
  const forgotten = plugin.replace(
    'export default defineHandler(',
    'const unused = defineHandler(',
  );
  expect(forgotten).not.toBe(plugin);
  makeProject(
    project(),
    {
      'my-handler.ts': plugin,
      'no-default.ts': forgotten,
      'src/set-interval.ts': handler.toString('utf8'),
    },
    'commonjs',
  );
});

describe('an ES module syntax .ts plugin in a "type": "commonjs" project', () => {
  it('the project is CommonJS', () => {
    const pkg = JSON.parse(readFileSync(join(project(), 'package.json'), 'utf8'));
    expect(pkg.type).toBe('commonjs');
  });

  // Worker threads load the plugin themselves: concurrent mode's pool, scheduled mode's lanes.
  it.each([
    ['sequential', []],
    ['concurrent', []],
    ['scheduled', ['--lanes', 'threads']],
  ])(
    '`receiptcheck run --handler ./my-handler.ts --mode %s` loads it and passes',
    (mode, extra) => {
      const r = receiptcheck(
        project(),
        [
          'run',
          '--handler',
          './my-handler.ts',
          '--mode',
          mode as string,
          ...(extra as string[]),
          '--runs',
          '10',
          '--workers',
          '2',
          // Far above any call's time: the verdict must not depend on how loaded the machine is.
          '--call-timeout-ms',
          '120000',
          // The checkout's own loader, tsx, which this is about: not the test run's build.
        ],
        { RECEIPTCHECK_CHECKOUT_BUILD: undefined },
      );
      expect(r.stderr).not.toContain('E_HANDLER_LOAD');
      expect(r.status, outcomeOf(r)).toBe(0);
      expect(r.stdout).toContain('PASSED');
    },
  );

  it('a plugin without `export default` is refused as one, not as a plugin missing its name', () => {
    const r = receiptcheck(project(), ['run', '--handler', './no-default.ts'], {
      RECEIPTCHECK_CHECKOUT_BUILD: undefined,
    });
    expect(r.status, outcomeOf(r)).toBe(2);
    expect(r.stderr).toMatch(/E_HANDLER_NO_DEFAULT: .*no default export \(it exports nothing\)/);
  });
});
