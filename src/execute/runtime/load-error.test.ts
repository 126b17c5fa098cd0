/**
 * Load failures as the loaders give them, each reduced to `file:line:col` and the real message's
 * first line: esbuild as an object (tsx in this thread) and as text (tsx's loader thread), oxc's
 * and rolldown's text (vitest), Node's place-less ES module syntax error (found by `node --check`),
 * a module that throws while loading (its first frame outside node_modules), and one that is not
 * found (no place to give, and none made up).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeLoadFailure } from './load-error.ts';

const dir = mkdtempSync(join(tmpdir(), 'receiptcheck-load-error-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PLUGIN = '/home/me/project/my-handler.ts';

describe('describeLoadFailure', () => {
  it("esbuild's TransformError: the first error's place (1-based column) and text", () => {
    const thrown = Object.assign(new Error('Transform failed with 1 error:\n…'), {
      errors: [{ text: 'Unexpected ","', location: { file: PLUGIN, line: 5, column: 5 } }],
    });
    expect(describeLoadFailure(thrown, PLUGIN)).toEqual({
      location: `${PLUGIN}:5:6`,
      message: 'Unexpected ","',
      truncated: false,
    });
  });

  it('the same as text only, as it comes back from tsx’s loader thread', () => {
    const thrown = new Error(
      `Transform failed with 1 error:\n${PLUGIN}:5:5: ERROR: Unexpected ","`,
    );
    expect(describeLoadFailure(thrown, PLUGIN)).toEqual({
      location: `${PLUGIN}:5:6`,
      message: 'Unexpected ","',
      truncated: false,
    });
  });

  it("oxc's coloured box (vitest), its path relative to the working folder", () => {
    const thrown = new Error(
      'Transform failed with 1 error:\n\n\u001b[31m[PARSE_ERROR] \u001b[0mUnexpected token\n   ╭─[ ../x/my-handler.ts:5:6 ]\n 5 │   b: ,\n',
    );
    expect(describeLoadFailure(thrown, PLUGIN)).toEqual({
      location: `${resolve('../x/my-handler.ts')}:5:6`,
      message: 'Unexpected token',
      truncated: true,
    });
  });

  it("rolldown's parse failure (vitest, JavaScript), out of vite's /@fs/ prefix", () => {
    const thrown = new Error(
      'Parse failure: Parse failed with 1 error:\nUnexpected token\n3:   b: ,\n        ^\nAt file: /@fs/tmp/p/h.mjs:3:5',
    );
    expect(describeLoadFailure(thrown, '/tmp/p/h.mjs')).toMatchObject({
      location: '/tmp/p/h.mjs:3:6',
      message: 'Unexpected token',
    });
  });

  it("Node's ES module syntax error names no place: `node --check` finds it", () => {
    const file = join(dir, 'bad.mjs');
    writeFileSync(file, 'export default {\n  a: 1,\n  b: ,\n};\n');
    const thrown = new SyntaxError("Unexpected token ','");
    expect(describeLoadFailure(thrown, file)).toEqual({
      location: `${file}:3:6`,
      message: "Unexpected token ','",
      truncated: false,
    });
  });

  it('a module that throws while loading: its first frame outside node_modules', () => {
    const thrown = new Error('config missing\nset MY_CONFIG');
    thrown.stack = [
      'Error: config missing',
      'set MY_CONFIG',
      '    at readConfig (/home/me/project/node_modules/conf/index.js:10:3)',
      '    at loadConfig (file:///home/me/project/config.ts:4:9)',
      `    at <anonymous> (${PLUGIN}:6:1)`,
      '    at ModuleJob.run (node:internal/modules/esm/module_job:325:25)',
    ].join('\n');
    expect(describeLoadFailure(thrown, PLUGIN)).toEqual({
      location: '/home/me/project/config.ts:4:9',
      message: 'config missing',
      truncated: true,
    });
  });

  it('a module not found: the message, and no place made up from the loader’s frames', () => {
    const thrown = new Error(`Cannot find module '/home/me/nope.ts' imported from ${PLUGIN}`);
    thrown.stack = `Error: ${thrown.message}\n    at resolve (/home/me/project/node_modules/tsx/dist/x.mjs:2:10)\n    at node:internal/modules/esm/loader:1:1`;
    expect(describeLoadFailure(thrown, PLUGIN)).toEqual({
      message: thrown.message,
      truncated: false,
    });
  });
});
