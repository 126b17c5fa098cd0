/**
 * A service whose receiptcheck was killed with SIGKILL (a CI job's hard timeout) cannot be
 * stopped by it: it ran on, holding its port. The next receiptcheck on the machine, sweeping the
 * dead run's temp directories, now ends its process group too, recognised by its leader's pid and
 * start time, so a pid used again since is never signalled.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { alive, startInterruptibleCheck } from '../../../testing/leftovers.ts';

const SERVICE = fileURLToPath(
  new URL('../../../examples/python-http/service.json', import.meta.url),
);

const dir = mkdtempSync(join(tmpdir(), 'rc-service-orphan-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Resolves once `pid` is gone, or after `ms`. */
async function gone(pid: number, ms: number): Promise<boolean> {
  for (let waited = 0; waited < ms; waited += 50) {
    if (!alive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !alive(pid);
}

describe('a service left running by a SIGKILL of its receiptcheck', () => {
  it('is ended by the next receiptcheck on the machine', async () => {
    const killed = await startInterruptibleCheck(dir, SERVICE);
    expect(killed.pids).toHaveLength(1);
    const [orphan] = killed.pids as [number];
    await killed.stop('SIGKILL');
    // Nothing ran its cleanups: the service is still there.
    expect(alive(orphan)).toBe(true);
    const next = await startInterruptibleCheck(dir, SERVICE);
    try {
      expect(await gone(orphan, 5_000)).toBe(true);
      expect(next.pids.every(alive)).toBe(true);
    } finally {
      await next.stop('SIGINT');
      if (alive(orphan)) process.kill(-orphan, 'SIGKILL');
    }
  }, 120_000);
});
