import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { processesWithEnv } from '../../../testing/leftovers.ts';
import { isReceiptcheckError } from '../../errors.ts';
import { mcpHttpProtocol, mcpStdioProtocol } from './mcp-protocol.ts';
import type {
  ProtocolClient,
  ProtocolContext,
  ProtocolDriver,
  ServiceRequest,
} from './protocol.ts';

const EXAMPLE = join(import.meta.dirname, '../../../examples/mcp-server');
const tmp = mkdtempSync(join(tmpdir(), 'receiptcheck-mcp-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const ALICE = { user: 'alice', workspace: 'w1', scopes: ['automation:write'] };

const DESCRIPTION = JSON.parse(readFileSync(join(EXAMPLE, 'service.json'), 'utf8')) as {
  setup: { schema: string[]; rows: { automations: string } };
};

/** A fresh database with the example's tables and automation 1 (version 1) in w1. */
function database(): string {
  const path = join(tmp, `${randomUUID()}.db`);
  const db = new Database(path);
  for (const statement of DESCRIPTION.setup.schema) db.exec(statement);
  db.prepare(DESCRIPTION.setup.rows.automations).run({
    id: 1,
    workspace: 'w1',
    intervalMinutes: 60,
    version: 1,
  });
  db.close();
  return path;
}

/** The example server's launch, marked so the test can find every process it left. */
function context(
  options: Record<string, unknown>,
  marker: string,
  args = ['--import', 'tsx', 'server.ts'],
  env: Record<string, string> = {},
): ProtocolContext {
  return {
    launch: {
      command: process.execPath,
      args,
      cwd: EXAMPLE,
      env: {
        PATH: process.env.PATH ?? '',
        DATABASE_PATH: database(),
        MCP_TEST_MARKER: marker,
        // tsx would leave its compile cache (a tsx-* folder) in the temp directory.
        TSX_DISABLE_CACHE: '1',
        ...env,
      },
      readyTimeoutMs: 20_000,
    },
    options,
    source: 'test-service.json',
    argumentNames: ['automationId', 'expectedVersion', 'intervalMinutes'],
  };
}

/** Processes whose environment carries `marker`: the servers a test started. */
const processesMarked = (marker: string) => processesWithEnv('MCP_TEST_MARKER', marker);

const call = (requestId: unknown, over: Partial<ServiceRequest> = {}): ServiceRequest => ({
  requestId,
  principal: ALICE,
  fields: { automationId: 1, expectedVersion: 1, intervalMinutes: 30 },
  ...over,
});

async function exercise(driver: ProtocolDriver, args?: string[]): Promise<void> {
  const marker = randomUUID();
  const options = { name: driver.name, tool: 'set_interval' };
  expect(driver.checkOptions(options)).toBeUndefined();
  const client: ProtocolClient = await driver.open(context(options, marker, args));
  try {
    expect(processesMarked(marker).length).toBeGreaterThan(0);
    const fresh = await client.send(call('edit-42'));
    expect(fresh).toEqual({
      status: 200,
      headers: {},
      body: { outcome: 'ok', replayed: false, result: { id: 1, intervalMinutes: 30, version: 2 } },
    });
    // Two at once over one connection: the same retry twice.
    const [a, b] = await Promise.all([client.send(call('edit-42')), client.send(call('edit-42'))]);
    for (const r of [a, b])
      expect(r.body).toEqual({
        outcome: 'ok',
        replayed: true,
        result: fresh.body && (fresh.body as { result: unknown }).result,
      });
    const revoked = await client.send(call(7, { principal: { ...ALICE, scopes: [] } }));
    expect(revoked).toMatchObject({
      status: 500,
      body: { outcome: 'refused', reason: 'forbidden' },
    });
    const badId = await client.send(call(7));
    expect(badId).toMatchObject({ status: 500, body: { outcome: 'invalid', field: 'requestId' } });
    const other = await client.send(call('edit-42', { principal: { ...ALICE, user: 'bob' } }));
    expect(other.body).toEqual({ outcome: 'refused', reason: 'conflict' });
  } finally {
    await client.close();
    await client.close();
  }
  expect(processesMarked(marker)).toEqual([]);
}

describe('MCP protocol drivers on the example server', () => {
  it('mcp-stdio: calls the tool with the principal in _meta, replays, and leaves no process', async () => {
    await exercise(mcpStdioProtocol);
  }, 60_000);

  it('mcp-http: the same over streamable HTTP', async () => {
    await exercise(mcpHttpProtocol, ['--import', 'tsx', 'server.ts', '--http']);
  }, 60_000);

  it("the planted bug answers bob with alice's receipt (what service-bug.json must catch)", async () => {
    const marker = randomUUID();
    const options = { name: 'mcp-stdio', tool: 'set_interval' };
    const env = { RECEIPTCHECK_EXAMPLE_BUG: 'key-without-user' };
    const client = await mcpStdioProtocol.open(context(options, marker, undefined, env));
    try {
      await client.send(call('edit-42'));
      const bob = await client.send(call('edit-42', { principal: { ...ALICE, user: 'bob' } }));
      expect(bob.body).toMatchObject({ outcome: 'ok', replayed: true });
    } finally {
      await client.close();
    }
    expect(processesMarked(marker)).toEqual([]);
  }, 60_000);

  it.each([
    [
      'a tool the server does not offer',
      { tool: 'set_intervals' },
      undefined,
      /offers no tool "set_intervals" \(its tools: set_interval\)/,
    ],
    [
      'a request id argument the tool does not take',
      { tool: 'set_interval', requestIdArgument: 'key' },
      undefined,
      /takes no argument "key"/,
    ],
    [
      'a server that exits at once',
      { tool: 'set_interval' },
      ['-e', 'console.error("no database here"); process.exit(3)'],
      /exited with code 3; it said: no database here/,
    ],
    [
      'a command that is not there',
      { tool: 'set_interval' },
      ['/nonexistent/server.mjs'],
      /exited with code 1/,
    ],
  ])(
    'refuses to start on %s, with one line, and leaves no process',
    async (_what, extra, args, message) => {
      const marker = randomUUID();
      const opened = mcpStdioProtocol.open(context({ name: 'mcp-stdio', ...extra }, marker, args));
      const error = await opened.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isReceiptcheckError(error) && error.code).toBe('E_SERVICE_START');
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain('\n');
      expect(processesMarked(marker)).toEqual([]);
    },
    60_000,
  );

  it("refuses a tool whose input schema lacks one of the operation's arguments", async () => {
    const marker = randomUUID();
    const ctx = context({ name: 'mcp-stdio', tool: 'set_interval' }, marker);
    const opened = mcpStdioProtocol.open({ ...ctx, argumentNames: ['automationId', 'minutes'] });
    await expect(opened).rejects.toThrow(
      expect.objectContaining({
        code: 'E_SERVICE_START',
        message: expect.stringMatching(
          /takes no argument "minutes" of the operation \(its arguments: requestId, automationId, expectedVersion, intervalMinutes\)/,
        ),
      }),
    );
    expect(processesMarked(marker)).toEqual([]);
  }, 60_000);

  it('checks its options before anything starts', () => {
    const check = (o: Record<string, unknown>) =>
      mcpHttpProtocol.checkOptions({ name: 'mcp-http', ...o });
    expect(check({})).toMatch(/protocol.tool must name the tool/);
    expect(check({ tool: 't', path: 'mcp' })).toMatch(/must start with "\/"/);
    expect(check({ tool: 't', callTimeoutMs: 0 })).toMatch(/positive integer/);
    expect(check({ tool: 't', method: 'POST' })).toMatch(/not an option of mcp-http/);
    expect(mcpStdioProtocol.checkOptions({ name: 'mcp-stdio', tool: 't', path: '/mcp' })).toMatch(
      /not an option/,
    );
    expect(
      check({ tool: 't', requestIdArgument: 'key', path: '/x', portEnv: 'P', callTimeoutMs: 5 }),
    ).toBeUndefined();
  });
});
