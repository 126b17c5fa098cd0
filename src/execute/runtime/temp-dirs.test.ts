/**
 * Which receiptcheck directories count as left by a dead process: the sweep at start-up removes
 * those (and, for PostgreSQL's, stops their servers), never this process's or a live one's.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deadOwnerDirs } from './temp-dirs.ts';

describe('deadOwnerDirs', () => {
  const root = mkdtempSync(join(tmpdir(), 'temp-dirs-test-'));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("lists a dead process's directories, not this one's, a live one's or another name", () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid as number;
    for (const name of [
      `receiptcheck-pg-${dead}-a`,
      `receiptcheck-${dead}-b`,
      `receiptcheck-pg-${process.pid}-c`,
      `receiptcheck-pg-${process.ppid}-d`,
      `other-${dead}-e`,
    ])
      mkdirSync(join(root, name));
    expect(deadOwnerDirs(root).sort()).toEqual(
      [`receiptcheck-${dead}-b`, `receiptcheck-pg-${dead}-a`].map((n) => join(root, n)).sort(),
    );
    expect(deadOwnerDirs(root, /^receiptcheck-pg-(\d+)-/)).toEqual([
      join(root, `receiptcheck-pg-${dead}-a`),
    ]);
    expect(deadOwnerDirs(join(root, 'missing'))).toEqual([]);
  });
});
