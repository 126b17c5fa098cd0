/**
 * Checking a running service: its description's one-line errors, the Python example passing in
 * sequential and concurrent modes through the CLI, a description whose answer mapping is wrong
 * failing with a counterexample (deterministically: the first conflict shows it, whatever the
 * timing), scheduled mode refused, and nothing left running or on disk after a pass, a failure,
 * a service that does not start, and SIGINT or SIGTERM. Temp directories are looked for in a
 * TMPDIR of this file's own; services are counted by process id.
 *
 * The planted race (`service-race.json`) is not here: concurrent mode finds it only when two
 * calls happen to overlap inside the service, which is timing; a test must not rest on that.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { commandsOf, docBlock } from '../../../testing/doc-blocks.ts';
import {
  alive,
  leftovers,
  ownTmpdir,
  startInterruptibleCheck,
} from '../../../testing/leftovers.ts';
import { runCli } from '../../cli/run-cli.ts';
import { isReceiptcheckError } from '../../errors.ts';
import {
  INTERRUPTED_EXIT_CODE,
  pendingInterruptCleanups,
  TERMINATED_EXIT_CODE,
} from '../runtime/interrupt.ts';
import { outcomeOfReply } from './answer-mapping.ts';
import { loadService } from './load-service.ts';
import { servicePids } from './service-process.ts';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const EXAMPLE = join(REPO, 'examples/python-http');
const SERVICE = join(EXAMPLE, 'service.json');
const description = JSON.parse(readFileSync(SERVICE, 'utf8'));

describe('a service description', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rc-service-desc-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  /** The error loading `text` (or the example changed by `change`) throws, as `CODE: message`. */
  const errorOf = (change: (d: Record<string, unknown>) => unknown, text?: string) => {
    const d = structuredClone(description);
    const path = join(dir, 'd.json');
    writeFileSync(path, text ?? JSON.stringify(change(d) ?? d));
    try {
      loadService(path);
      return 'loaded';
    } catch (thrown) {
      if (!isReceiptcheckError(thrown)) throw thrown;
      return `${thrown.code}: ${thrown.message.replace(`service description ${path}: `, '')}`;
    }
  };

  it('loads the example', () => {
    expect(errorOf(() => undefined)).toBe('loaded');
  });

  it.each([
    ['not JSON', () => undefined, '{', /^E_SERVICE_DESCRIPTION: not JSON/],
    [
      'no command',
      (d: Record<string, unknown>) => void delete d.command,
      undefined,
      /"command" must be a non-empty string, and is missing$/,
    ],
    [
      'args not strings',
      (d: Record<string, unknown>) => {
        d.args = [1];
      },
      undefined,
      /"args" must be a list of strings$/,
    ],
    [
      'an unknown field',
      (d: Record<string, unknown>) => {
        d.port = 1;
      },
      undefined,
      /"port" is not a field here/,
    ],
    [
      'another engine',
      (d: Record<string, unknown>) => {
        d.database = { engine: 'mysql' };
      },
      undefined,
      /"database.engine" must be "sqlite"/,
    ],
    [
      'an unknown protocol',
      (d: Record<string, unknown>) => {
        d.protocol = { name: 'grpc' };
      },
      undefined,
      /"protocol.name" must be one of "http"/,
    ],
    [
      'a bad HTTP option',
      (d: Record<string, unknown>) => {
        d.protocol = { name: 'http', path: 'x' };
      },
      undefined,
      /protocol.path must start with "\/"/,
    ],
    [
      'no snapshot of the table',
      (d: Record<string, { automations?: string }>) => void delete d.snapshot?.automations,
      undefined,
      /"snapshot.automations" is missing: operation set-interval reads/,
    ],
    [
      'a refusal without reason',
      (d: Record<string, unknown>) => {
        d.answers = [{ status: 410, outcome: 'refused' }];
      },
      undefined,
      /"answers\[0\]" maps to refused: give its "reason"/,
    ],
    [
      'a bad status',
      (d: Record<string, unknown>) => {
        d.answers = [{ status: '6xx', outcome: 'error' }];
      },
      undefined,
      /"answers\[0\].status" must be a status/,
    ],
  ])('%s: one line naming the field', (_, change, text, expected) => {
    const error = errorOf(change as (d: Record<string, unknown>) => unknown, text);
    expect(error).toMatch(/^E_SERVICE_DESCRIPTION: /);
    expect(error).toMatch(expected);
    expect(error).not.toContain('\n');
  });

  it('maps replies by its rules, then the defaults, and refuses a reply none maps', () => {
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
      status,
      headers,
      body,
    });
    const row = { id: 1, intervalMinutes: 30, version: 2 };
    expect(outcomeOfReply(reply(200, row), [])).toEqual({
      kind: 'ok',
      result: row,
      replayed: false,
    });
    expect(outcomeOfReply(reply(200, row, { 'idempotent-replayed': 'true' }), [])).toMatchObject({
      replayed: true,
    });
    expect(outcomeOfReply(reply(400, { field: 'intervalMinutes' }), [])).toEqual({
      kind: 'invalid',
      field: 'intervalMinutes',
    });
    const rules = [
      { status: 200, body: { status: 'replayed' }, outcome: 'replayed', result: '$.row' } as const,
    ];
    expect(outcomeOfReply(reply(200, { status: 'replayed', row }), rules)).toMatchObject({
      replayed: true,
      result: row,
    });
    expect(() => outcomeOfReply(reply(418, 'teapot'), [])).toThrow(
      'no answer rule maps status 418 teapot',
    );
  });
});

describe('receiptcheck run --service', () => {
  const dir = ownTmpdir('rc-service-');
  const expectClean = () => {
    expect(leftovers(dir)).toEqual([]);
    expect(servicePids()).toEqual([]);
    expect(pendingInterruptCleanups()).toBe(0);
  };

  it("runs the guide's command: the Python example passes in both modes, leaving nothing", async () => {
    const commands = commandsOf(docBlock('docs/services.md › Checking a running service'));
    expect(commands).toHaveLength(1);
    const args = (commands[0] ?? '').replace(/^npx receiptcheck /, '').split(/\s+/);
    const r = await runCli(...args.map((a) => (a.startsWith('examples/') ? join(REPO, a) : a)));
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`python-http (${SERVICE}) in sequential + concurrent modes`);
    expect(r.out).toContain('PASSED');
    expectClean();
  });

  it("shows the example's description in the guide, as it is", () => {
    const shown = docBlock('docs/services.md › A description');
    expect(JSON.parse(shown.text)).toEqual(description);
  });

  it('fails with a counterexample when its answers are mapped wrong, leaving nothing', async () => {
    // 409 read as key reuse: the first version conflict is a wrong answer, in any timing.
    const path = join(dir, 'wrong.json');
    writeFileSync(
      path,
      JSON.stringify({
        ...description,
        cwd: EXAMPLE,
        answers: [{ status: 409, outcome: 'keyReuse' }],
      }),
    );
    const r = await runCli(
      'run',
      '--service',
      path,
      '--mode',
      'concurrent',
      '--out',
      join(dir, 'cx'),
    );
    expect(r.code, r.err).toBe(1);
    expect(r.out).toMatch(/expected refused\(conflict\)[\s\S]*actual +keyReuse/);
    const cx = readdirSync(join(dir, 'cx')).filter((f) => f.endsWith('.json'));
    expect(cx).toHaveLength(1);
    rmSync(join(dir, 'cx'), { recursive: true });
    expectClean();
  });

  it('replays a case against a service given by --service, as by --handler', async () => {
    const scenario = join(REPO, 'scenarios/article/02-lost-response-replays.json');
    const held = await runCli('replay', scenario, '--service', SERVICE);
    expect(held.code, held.err).toBe(0);
    expect(held.out).toContain('held: the case no longer fails');
    const both = await runCli('replay', scenario, '--service', SERVICE, '--handler', 'reference');
    expect(both.code).toBe(2);
    expect(both.err).toMatch(/E_USAGE: give --handler or --service, not both/);
    expectClean();
  });

  it('refuses scheduled mode, soak, and a service that does not start, with exit 2 and one line', async () => {
    const scheduled = await runCli('run', '--service', SERVICE, '--mode', 'scheduled');
    expect(scheduled.code).toBe(2);
    expect(scheduled.err).toMatch(
      /^receiptcheck: E_SERVICE_MODE: service "python-http" runs its SQLite statements in its own process/,
    );
    const soak = await runCli('soak', '--handler', SERVICE);
    expect(soak.code).toBe(2);
    expect(soak.err).toMatch(/^receiptcheck: E_SERVICE_MODE: soak runs plugins only so far/);
    const path = join(dir, 'dies.json');
    writeFileSync(
      path,
      JSON.stringify({
        ...description,
        cwd: EXAMPLE,
        args: ['-c', 'print("no port for me"); raise SystemExit(3)'],
      }),
    );
    const dies = await runCli('run', '--service', path, '--mode', 'sequential');
    expect(dies.code).toBe(2);
    expect(dies.err).toMatch(
      /E_SERVICE_START: .*it ended before listening; the service exited with code 3; it said: no port for me/,
    );
    expect(dies.err.trim().split('\n')).toHaveLength(1);
    expectClean();
  });

  it.each([
    ['SIGINT', INTERRUPTED_EXIT_CODE],
    ['SIGTERM', TERMINATED_EXIT_CODE],
  ] as const)(
    '%s mid-run: exits %i, the service stopped, no temp directory',
    async (signal, code) => {
      const check = await startInterruptibleCheck(dir, SERVICE);
      expect(check.pids).toHaveLength(1);
      expect(check.pids.every(alive)).toBe(true);
      // Its database's directory, and the one noting the service's process group.
      expect(leftovers(dir)).toHaveLength(2);
      expect(await check.stop(signal), check.stderr()).toBe(code);
      expect(check.pids.some(alive)).toBe(false);
      expect(leftovers(dir)).toEqual([]);
    },
  );
});
