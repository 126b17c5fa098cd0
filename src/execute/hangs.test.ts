/**
 * A call that does not return within the call budget is a counterexample in every mode: exit 1,
 * the sequence shown (shrunk to the call that hangs), a case file whose failure is the hang, and
 * a JUnit failure. Every kind: a synchronous `while (true) {}` (which no timer on its thread can
 * interrupt), a promise that never settles, and a loop after the call's first `await` (code the
 * microtask queue runs, which the call budget runs inside its watched stretch: `runtime/task.ts`).
 * Each check is the real CLI in a child process, so a mode that cannot stop a loop fails this
 * test by the bound instead of hanging the suite.
 *
 * Inline lanes carry replayable handlers, whose awaits settle on the microtask queue: a loop after
 * an await is stopped there like one before it; a promise still pending once the queue is empty
 * moves the handler to thread lanes, where the never-settling promise is a hang, as it is on the
 * coordinator's own thread through scheduled mode's plain steps.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { built, builtBin } from '../../testing/built-package.ts';
import { type JudgedScheduledRunner, judgedScheduled } from '../../testing/judged-runners.ts';
import type { CallEvent, Step } from '../model/events.ts';
import { setInterval as setIntervalSpec } from '../model/operations/set-interval.ts';
import { DEFAULT_FIXTURE } from '../model/world.ts';
import { decodeJson } from '../report/encode.ts';
import { loadPlugin } from './runtime/load-plugin.ts';
import { scheduledRunner } from './sqlite/scheduled/scheduled-mode.ts';

/** The command as installed (`testing/built-package.ts`), which each case below starts. */
const BIN = builtBin();
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const BUSY = fixture('busy-handler.ts');
const UNSETTLED = fixture('unsettled-handler.ts');
/** The same, declared replayable: inline lanes must hand it to threads, not wait for ever. */
const UNSETTLED_REPLAYABLE = fixture('unsettled-replayable-handler.ts');
/** Loops after its first `await`: code the microtask queue runs, inside the watched stretch. */
const AFTER_AWAIT = fixture('busy-after-await-handler.ts');
const BUDGET_MS = 300;
/**
 * Short sequences: every shrink candidate that still hangs waits out the budget and, on threads,
 * restarts a worker, so a 20-step find costs twice the shrinks of a 4-step one and shows nothing
 * more about the hang (the shrink from several steps to the one call is still asserted).
 */
const STEPS_MAX = '4';
/** Far beyond what a check takes here (seconds), far below a hung CI job. */
const BOUND_MS = 120_000;

const tmp = mkdtempSync(join(tmpdir(), 'rc-hangs-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Runs the CLI; kills it at the bound (a mode that cannot stop the loop), reporting how it ended. */
function receiptcheck(argv: readonly string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...argv], {
      cwd: tmp,
      env: { ...process.env, TMPDIR: tmp },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += String(chunk);
    });
    child.stderr.on('data', (chunk) => {
      out += String(chunk);
    });
    const bound = setTimeout(() => child.kill('SIGKILL'), BOUND_MS);
    child.on('exit', (code) => {
      clearTimeout(bound);
      resolve({ code, out });
    });
  });
}

const CASES = [
  ['a synchronous loop', 'sequential', BUSY, ['--mode', 'sequential'], 'still running, stopped'],
  ['a synchronous loop', 'concurrent', BUSY, ['--mode', 'concurrent'], 'worker thread was stopped'],
  [
    'a synchronous loop',
    'scheduled, inline lanes',
    BUSY,
    ['--mode', 'scheduled', '--lanes', 'inline'],
    'still running, stopped',
  ],
  [
    'a synchronous loop',
    'scheduled, thread lanes',
    BUSY,
    ['--mode', 'scheduled', '--lanes', 'threads'],
    /still running, stopped|worker thread was stopped/,
  ],
  [
    'a promise that never settles',
    'sequential',
    UNSETTLED,
    ['--mode', 'sequential'],
    'never settled',
  ],
  [
    'a promise that never settles',
    'concurrent',
    UNSETTLED,
    ['--mode', 'concurrent'],
    'worker thread was stopped',
  ],
  [
    'a promise that never settles',
    'scheduled, thread lanes',
    UNSETTLED,
    ['--mode', 'scheduled', '--lanes', 'threads'],
    /never settled|worker thread was stopped/,
  ],
  [
    'a promise that never settles',
    'scheduled, declared replayable',
    UNSETTLED_REPLAYABLE,
    ['--mode', 'scheduled'],
    /never settled|worker thread was stopped/,
  ],
  [
    'a loop after an await',
    'sequential',
    AFTER_AWAIT,
    ['--mode', 'sequential'],
    'still running, stopped',
  ],
  [
    'a loop after an await',
    'concurrent',
    AFTER_AWAIT,
    ['--mode', 'concurrent'],
    'worker thread was stopped',
  ],
  // Shrunk to one plain step, which runs on the coordinator's thread.
  [
    'a loop after an await',
    'scheduled',
    AFTER_AWAIT,
    ['--mode', 'scheduled'],
    /still running, stopped|worker thread was stopped/,
  ],
] as const;

/**
 * Concurrently: a case spends most of its time waiting out the budget of each shrink candidate
 * that still hangs, not computing, and each has its own process and output folder.
 */
describe.concurrent.each(CASES)('%s in %s mode', (_what, name, handler, mode, how) => {
  it('exits 1 with the hang shown, shrunk, saved and in JUnit', async ({ expect }) => {
    const slug = name.replace(/\W+/g, '-');
    const out = join(tmp, `cx-${slug}-${handler.replace(/.*\//, '').replace(/\W+/g, '-')}`);
    const junit = `${out}.xml`;
    const r = await receiptcheck([
      'run',
      '--handler',
      built(handler),
      ...mode,
      '--call-timeout-ms',
      String(BUDGET_MS),
      '--runs',
      '40',
      '--steps-max',
      STEPS_MAX,
      '--workers',
      '2',
      '--out',
      out,
      '--junit',
      junit,
    ]);
    expect({ code: r.code, out: r.out }).toMatchObject({ code: 1 });
    expect(r.out).toMatch(/✗ did not return within 300 ms \(/);
    expect(r.out).toMatch(how);
    expect(r.out).toContain('FAILED');
    // Shrunk to the call on the hanging automation: nothing else is needed to hang.
    expect(r.out).toMatch(/Counterexample for [\w-]+ \(\w+ mode\): 1 step, .* shrunk [1-9]/);
    const [file] = readdirSync(out).filter((f) => f.endsWith('.json'));
    // The case file keeps what the run found beside the steps, at its top level.
    const saved = decodeJson(readFileSync(join(out, file as string), 'utf8')) as {
      failures: { kind: string; limitMs: number }[];
      steps: unknown[];
    };
    expect(saved.failures).toEqual([expect.objectContaining({ kind: 'hang', limitMs: BUDGET_MS })]);
    expect(saved.steps).toHaveLength(1);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('failures="1"');
    expect(xml).toMatch(
      /<failure message="counterexample of 1 step\(s\): [^"]*did not (return|settle)/,
    );
  });
});

describe('a hang inside a group, on each lane carrier', () => {
  const call = (requestId: string, automationId: number, client: number): CallEvent => ({
    kind: 'call',
    client,
    delivery: 'delivered',
    request: { requestId, automationId, expectedVersion: 1, intervalMinutes: 30 },
  });
  const opened: JudgedScheduledRunner[] = [];
  afterAll(async () => {
    await Promise.all(opened.map((r) => r.close()));
  });

  it.each([
    ['a loop', 'inline', BUSY, 'busy'],
    ['a loop', 'threads', BUSY, 'thread'],
    ['a loop after an await', 'inline', AFTER_AWAIT, 'busy'],
    // Pending once the microtasks ran out: the run starts over on threads, where it hangs.
    ['a promise that never settles', 'auto', UNSETTLED_REPLAYABLE, 'thread'],
  ] as const)(
    '%s, %s lanes: the lane is named, and the next run starts clean',
    async (_what, lanes, handler, how) => {
      const r = judgedScheduled(
        await scheduledRunner(await loadPlugin(handler), handler, {
          spec: setIntervalSpec,
          fixture: DEFAULT_FIXTURE,
          callTimeoutMs: BUDGET_MS,
          workers: 2,
          lanes,
        }),
      );
      opened.push(r);
      // Lane 2 calls automation 2, which never returns; lane 1 may be mid-transaction meanwhile.
      const group: Step[] = [
        call('a', 1, 0),
        { kind: 'concurrent', events: [call('b', 1, 1), call('c', 2, 0)] },
      ];
      const hung = await r.executeScheduled(group, []);
      expect(hung.verdict).toEqual({
        verdict: 'failed',
        failures: [expect.objectContaining({ kind: 'hang', step: 1, lane: 1, how })],
      });
      const clean = await r.executeScheduled([call('a', 1, 0), call('b', 1, 1)], []);
      expect(clean.verdict).toEqual({ verdict: 'ok' });
    },
  );
});
