import { describe, expect, it } from 'vitest';
import { siblingModuleUrl } from './sibling-module-url.ts';

describe('siblingModuleUrl', () => {
  it('keeps .ts when the caller runs from the sources', () => {
    const url = siblingModuleUrl(
      '../../workers/w.ts',
      'file:///repo/src/execute/sqlite/scheduled/lane.ts',
    );
    expect(url.href).toBe('file:///repo/src/execute/workers/w.ts');
  });

  it('gives .js when the caller runs from the build', () => {
    const url = siblingModuleUrl('./mutants/m.ts', 'file:///pkg/dist/handlers/registry.js');
    expect(url.href).toBe('file:///pkg/dist/handlers/mutants/m.js');
  });

  it('refuses a path that is not a .ts module', () => {
    expect(() => siblingModuleUrl('./entry.mjs', 'file:///pkg/dist/a.js')).toThrow(/\.ts module/);
  });
});
