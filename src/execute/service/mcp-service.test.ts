/**
 * The MCP example through `receiptcheck run --service`: the server passes over stdio, the same
 * server with its planted bug (a receipt key without the user) fails with a counterexample, and
 * nothing is left running or on disk after a pass, a failure, or SIGINT. Sequential mode for the
 * verdicts, so neither rests on timing: the bug shows as soon as a second user of a workspace
 * reuses a request id, whatever the order calls arrive in. Temp directories are looked for in a
 * TMPDIR of this file's own; MCP servers are counted by process id.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  alive,
  leftovers,
  ownTmpdir,
  processesWithEnv,
  startInterruptibleCheck,
} from '../../../testing/leftovers.ts';
import { runCli } from '../../cli/run-cli.ts';
import { INTERRUPTED_EXIT_CODE, pendingInterruptCleanups } from '../runtime/interrupt.ts';
import { servicePids } from './service-process.ts';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const EXAMPLE = join(REPO, 'examples/mcp-server');

/** Processes whose environment carries `marker`: the services a run started. */
const processesMarked = (marker: string) => processesWithEnv('MCP_TEST_MARKER', marker);

describe('receiptcheck run --service with an MCP server', () => {
  const dir = ownTmpdir('rc-mcp-service-');
  const expectClean = () => {
    expect(leftovers(dir)).toEqual([]);
    expect(servicePids()).toEqual([]);
    expect(pendingInterruptCleanups()).toBe(0);
  };

  it('passes the example over stdio, leaving nothing', async () => {
    const service = join(EXAMPLE, 'service.json');
    const r = await runCli('run', '--service', service, '--mode', 'sequential', '--runs', '40');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`mcp-server (${service}) in sequential mode`);
    expect(r.out).toContain('PASSED');
    expectClean();
  }, 120_000);

  it('passes the example over streamable HTTP, leaving no process', async () => {
    const marker = randomUUID();
    process.env.MCP_TEST_MARKER = marker;
    try {
      const service = join(EXAMPLE, 'service-http.json');
      const r = await runCli('run', '--service', service, '--mode', 'sequential', '--runs', '40');
      expect(r.code, r.err).toBe(0);
      expect(r.out).toContain('PASSED');
    } finally {
      delete process.env.MCP_TEST_MARKER;
    }
    expect(processesMarked(marker)).toEqual([]);
    expectClean();
  }, 120_000);

  it('fails the planted key-without-user bug with a counterexample, leaving nothing', async () => {
    const out = join(dir, 'cx');
    const r = await runCli(
      'run',
      '--service',
      join(EXAMPLE, 'service-bug.json'),
      '--mode',
      'sequential',
      '--seed',
      '42',
      '--out',
      out,
    );
    expect(r.code, r.err).toBe(1);
    // Two users of one workspace, one request id: the second meets the first's receipt.
    expect(r.out).toMatch(/Counterexample for mcp-server-key-without-user/);
    expect(r.out).toMatch(/actual +(keyReuse|ok\(replayed)/);
    expect(readdirSync(out).filter((f) => f.endsWith('.json'))).toHaveLength(1);
    rmSync(out, { recursive: true });
    expectClean();
  }, 120_000);

  it('SIGINT mid-run: exits 130, the MCP server stopped, no temp directory', async () => {
    const check = await startInterruptibleCheck(dir, join(EXAMPLE, 'service.json'));
    expect(check.pids).toHaveLength(1);
    expect(check.pids.every(alive)).toBe(true);
    // Its database's directory, and the one noting the service's process group.
    expect(leftovers(dir)).toHaveLength(2);
    expect(await check.stop('SIGINT'), check.stderr()).toBe(INTERRUPTED_EXIT_CODE);
    expect(check.pids.some(alive)).toBe(false);
    expect(leftovers(dir)).toEqual([]);
  }, 120_000);
});
