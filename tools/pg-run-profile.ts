/**
 * Where a PostgreSQL run's time goes under the harness: runs `checkHandler` on a PostgreSQL
 * plugin in one mode and counts every query the `pg` driver sends by kind (the handler's, the
 * snapshot's, the reset, lane cleanings, lock questions, rollbacks), with their round-trip time,
 * times how long each run waited for the reset the previous run started, and reads the CPU time
 * of this process and of the embedded server it started (from `/proc`). Mode `raw` measures the
 * raw loop instead, on the same sequences, as the bench does. Under load, compare CPU a run and
 * the waits, interleaved with the other build, rather than the wall time.
 *
 *   npx tsx tools/pg-run-profile.ts [sequential|concurrent|scheduled|raw] [runs] [handler] [seed]
 */
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { checkHandler } from '../src/api/check-handler.ts';
import { dropIdleDatabase } from '../src/execute/postgres/idle-database.ts';
import { PostgresSession } from '../src/execute/postgres/postgres-session.ts';
import { stopEmbeddedPostgres } from '../src/execute/postgres/server.ts';
import type { Mode } from '../src/types/mode.ts';

const mode = (process.argv[2] ?? 'sequential') as Mode;
const runs = Number(process.argv[3] ?? 100);
const handler = process.argv[4] ?? 'pg-reference';
const seed = Number(process.argv[5] ?? 42);

const kinds = new Map<string, { n: number; ms: number }>();
function kindOf(text: string): string {
  if (text.includes('md5(concat_ws')) return 'reset-long';
  if (text.includes('session_replication_role') || text.includes('receiptcheck_seed'))
    return 'reset';
  if (text.startsWith('ROLLBACK; CLOSE ALL') || text.startsWith('CLOSE ALL')) return 'clean';
  if (text.includes('pg_blocking_pids') || text.includes('pg_locks')) return 'lock-watch';
  if (text === 'ROLLBACK') return 'rollback';
  if (
    /^SELECT .* FROM \w+ ORDER BY id$/s.test(text) ||
    text.startsWith(
      'SELECT workspace_id, user_id, tool, request_id, payload, response FROM receipts',
    )
  )
    return 'snapshot';
  if (text.includes('pg_backend_pid') || text.includes('pg_terminate_backend'))
    return 'harness-other';
  return 'handler';
}
const query = pg.Client.prototype.query as (...a: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const first = args[0];
  const text = typeof first === 'string' ? first : ((first as { text?: string })?.text ?? '?');
  const kind = kindOf(text);
  const started = performance.now();
  const result = query.apply(this, args);
  const k = kinds.get(kind) ?? { n: 0, ms: 0 };
  kinds.set(kind, k);
  k.n++;
  if (result && typeof (result as Promise<unknown>).then === 'function')
    (result as Promise<unknown>).then(
      () => {
        k.ms += performance.now() - started;
      },
      () => {
        k.ms += performance.now() - started;
      },
    );
  return result;
} as never;

/** The times `PostgresSession`'s method `name` took, each call from its start to its end. */
function timed(name: 'begin' | 'reset', started: { first?: number } = {}): number[] {
  const times: number[] = [];
  const method = PostgresSession.prototype[name];
  PostgresSession.prototype[name] = async function (this: PostgresSession) {
    const at = performance.now();
    started.first ??= at;
    try {
      return await method.call(this);
    } finally {
      times.push(performance.now() - at);
    }
  };
  return times;
}
/** When the first run of the measured check began (its first `begin`). */
const firstRun: { first?: number } = {};
/** How long each run waited for its database (`begin`: the reset the last run started). */
const waits = timed('begin', firstRun);
/** How long each reset took, from its start to its end. */
const resets = timed('reset');
const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/** The fields of `/proc/PID/stat` after the command; undefined when the process is gone. */
function statOf(pid: string): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/**
 * CPU ms the embedded server has used: its postmaster (with the backends it reaped) and every
 * live process under it. Only a server this process started (a child of it) is counted.
 */
function serverCpuMs(): number {
  const pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  const parent = new Map<string, string>();
  for (const p of pids) {
    const st = statOf(p);
    if (st) parent.set(p, st[1] as string);
  }
  const ticks = (p: string, children: boolean) => {
    const st = statOf(p);
    if (!st) return 0;
    const own = Number(st[11]) + Number(st[12]);
    return children ? own + Number(st[13]) + Number(st[14]) : own;
  };
  let total = 0;
  for (const [p, pp] of parent) {
    if (pp !== String(process.pid)) continue;
    total += ticks(p, true);
    for (const [c, cp] of parent) if (cp === p) total += ticks(c, false);
  }
  return total * 10; // 100 ticks a second
}

/** The queries counted since `kinds` was cleared, by kind, per run of `runs`. */
function printKinds(r: number): void {
  let total = 0;
  for (const [kind, k] of [...kinds].sort((a, b) => b[1].n - a[1].n)) {
    total += k.n;
    console.log(
      `  ${kind.padEnd(14)} ${String(k.n).padStart(6)} queries, ${(k.n / r).toFixed(2)} a run, ${(k.ms / k.n).toFixed(3)} ms each, ${(k.ms / r).toFixed(2)} ms a run`,
    );
  }
  console.log(`  all            ${total} queries, ${(total / r).toFixed(2)} a run`);
}

/** The raw loop (`raw-loop.ts`) on the sequences `checkHandler` draws for `seed`, as the bench runs it. */
async function rawLoop(): Promise<void> {
  const { PostgresRawLoop } = await import('../src/execute/postgres/raw-loop.ts');
  const { stepMix } = await import('../src/bench/step-mix.ts');
  const { DEFAULT_FIXTURE } = await import('../src/model/world.ts');
  const { preparePlugin } = await import('../src/api/prepare-run.ts');
  const { plugin, spec } = await preparePlugin(handler, DEFAULT_FIXTURE);
  const mix = { fixture: DEFAULT_FIXTURE, spec, stepsMax: 20, recreate: !!plugin.recreate };
  const raw = await PostgresRawLoop.open(plugin as never, DEFAULT_FIXTURE);
  try {
    await raw.measure(stepMix(mix, seed + 1000, 20));
    kinds.clear();
    const server = serverCpuMs();
    const m = await raw.measure(stepMix(mix, seed, runs));
    const serverMs = serverCpuMs() - server;
    console.log(
      `raw ${handler} seed ${seed}: ${runs} runs, ${m.steps} steps, ${(m.steps / m.seconds).toFixed(0)} steps/s, ${((m.seconds * 1000) / runs).toFixed(2)} ms a run timed, this process ${((m.cpuSeconds * 1000) / runs).toFixed(2)} ms CPU a run timed, the server ${(serverMs / runs).toFixed(2)} ms a run (resets included)`,
    );
    printKinds(runs);
  } finally {
    await raw.close();
  }
}

async function main(): Promise<void> {
  if ((mode as string) === 'raw') return rawLoop();
  // A warm-up check, then the measured one on another seed.
  await checkHandler({ handler, mode, runs: 20, seed: seed + 1000 });
  kinds.clear();
  waits.length = resets.length = 0;
  firstRun.first = undefined;
  const cpu = process.cpuUsage();
  const server = serverCpuMs();
  const started = performance.now();
  const result = await checkHandler({ handler, mode, runs, seed });
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const serverMs = serverCpuMs() - server;
  const r = result.runs;
  console.log(
    `${mode} ${handler} seed ${seed}: ${result.verdict}, ${r} runs, ${result.steps} steps, ${ms.toFixed(0)} ms wall, ${((used.user + used.system) / 1000).toFixed(0)} ms CPU: ${(result.steps / (ms / 1000)).toFixed(0)} steps/s, ${(ms / r).toFixed(2)} ms a run`,
  );
  printKinds(r);
  const nodeMs = (used.user + used.system) / 1000;
  const runsMs = performance.now() - (firstRun.first ?? started);
  console.log(
    `  from the first run on: ${(runsMs / r).toFixed(2)} ms a run, ${(result.steps / (runsMs / 1000)).toFixed(0)} steps/s`,
  );
  console.log(
    `  CPU a run: ${((nodeMs + serverMs) / r).toFixed(2)} ms (this process ${(nodeMs / r).toFixed(2)}, the server ${(serverMs / r).toFixed(2)})`,
  );
  const sorted = [...waits].sort((a, b) => a - b);
  const at = (q: number) => (sorted[Math.floor(q * (sorted.length - 1))] ?? 0).toFixed(2);
  console.log(
    `  waits: median ${at(0.5)}, p90 ${at(0.9)}, p99 ${at(0.99)}, max ${at(1)} ms; over 1 ms: ${waits.filter((w) => w > 1).length}`,
  );
  console.log(
    `  begin waited ${(sum(waits) / waits.length).toFixed(3)} ms a run (${waits.length}); reset took ${(sum(resets) / resets.length).toFixed(3)} ms each (${resets.length})`,
  );
}

main()
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(async () => {
    await dropIdleDatabase();
    await stopEmbeddedPostgres?.();
  });
