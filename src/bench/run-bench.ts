/**
 * `runBench`: every bench figure in one process, one run, so ratios hold on a noisy machine.
 * Raw and the harness modes alternate in rounds (order reversed every other round) on the same
 * seeds, so a noisy spell hits all of them, after an untimed warm-up in which every path runs
 * for a CPU second, so that none is timed cold (`bench-rounds.ts`; raw warms by the same rule): sequential and concurrent mode with raw, then
 * scheduled mode (inline and on thread lanes) with raw on its own mix, so that the two kinds of
 * worker never hold memory at once; then the checker, the soak-sized check in a child process,
 * and time to kill each mutant.
 *
 * The bench sits above `api/` like the CLI: it drives `checkHandler` as users do, and touches
 * SQLite only through `execute/` (the template, `openConnection`, the world functions). A
 * PostgreSQL plugin gets its throughput from `postgres-throughput.ts` by the same method, time to
 * kill for the PostgreSQL mutants of every operation's catalogue, and the count of runs whose
 * reset had to fall back to a new copy of the template (a run that changed the schema).
 */

import { preparePlugin } from '../api/prepare-run.ts';
import { templateCopies } from '../execute/postgres/run-database.ts';
import { destroyIdlePool } from '../execute/sqlite/concurrent/warm-pool.ts';
import {
  DatabaseFiles,
  openConnection,
  openMemoryCopy,
  templateImage,
} from '../execute/sqlite/databases.ts';
import { measureRaw } from '../execute/sqlite/raw-loop.ts';
import { type ResetToTemplate, templateResetter } from '../execute/sqlite/reset-to-template.ts';
import {
  closeIdleLaneWorkers,
  startLaneWorkers,
} from '../execute/sqlite/scheduled/threads/lane-workers.ts';
import type { MutantEntry } from '../handlers/catalogue.ts';
import { requireSqlite } from '../handlers/engine.ts';
import type { Connection, HandlerPlugin } from '../handlers/plugin.ts';
import { isPostgresPlugin } from '../handlers/postgres/plugin.ts';
import { CATALOGUES, catalogueOf } from '../handlers/registry.ts';
import type { Event } from '../model/events.ts';
import type { OperationSpec } from '../model/operation.ts';
import { DEFAULT_FIXTURE, type Fixture } from '../model/world.ts';
import {
  type BenchOptions,
  type ResolvedBenchOptions,
  resolveBenchOptions,
} from './bench-options.ts';
import type { BenchReport, CheckerFigure, KillFigure, ThroughputSection } from './bench-report.ts';
import { benchRounds } from './bench-rounds.ts';
import { measureChecker, measureSoakCheck } from './checker-time.ts';
import { HARNESS_PATHS, modePath } from './harness-throughput.ts';
import { machineInfo } from './machine-info.ts';
import { median } from './median.ts';
import { startMemorySampler } from './memory-peak.ts';
import { measurePostgresThroughput } from './postgres-throughput.ts';
import { measureCoverage, proveKills, type RaceMutant } from './prove-against-sampling.ts';
import { scheduledStepMix, stepMix } from './step-mix.ts';
import { checkTargets } from './targets.ts';
import {
  emptyTotals,
  type PathName,
  type PathTotals,
  throughputSection,
} from './throughput-totals.ts';
import { timeToKill } from './time-to-kill.ts';

/** Runs the whole bench and returns every figure as data. */
export async function runBench(options: BenchOptions = {}): Promise<BenchReport> {
  let o = resolveBenchOptions(options);
  const started = performance.now();
  const memory = startMemorySampler();
  // Prepared as every check prepares it, so the raw loop measures the same plugin.
  const prepared = await preparePlugin(o.handler, DEFAULT_FIXTURE, undefined, o.operation);
  const postgres = isPostgresPlugin(prepared.plugin);
  if (postgres) o = resolveBenchOptions(options, 'postgres');
  const copiesBefore = templateCopies();
  const throughput = isPostgresPlugin(prepared.plugin)
    ? await measurePostgresThroughput(
        o,
        prepared.plugin,
        prepared.fixture,
        prepared.spec,
        memory.sample,
      )
    : await measureThroughput(
        o,
        requireSqlite(prepared.plugin, 'bench'),
        prepared.handlerPath,
        prepared.fixture,
        prepared.spec,
        memory.sample,
      );
  const checker = await measureCheckerRuns(o);
  memory.sample();
  o.onProgress(
    `soak check: ${o.soakEntries} calls from ${o.soakClients} clients, in a child process`,
  );
  const soakCheck = await measureSoakCheck(o.soakEntries, o.soakClients, 1);
  // A PostgreSQL handler is measured against PostgreSQL mutants: every operation's.
  const kills = await measureKills(
    o,
    postgres ? postgresMutants(o) : sqliteMutants(o),
    memory.sample,
  );
  const proveSection =
    o.proveCases > 0 ? await measureProve(o, postgres, kills, memory.sample) : undefined;
  const partial = {
    machine: machineInfo(),
    config: {
      handler: o.handler,
      engine: postgres ? ('postgres' as const) : ('sqlite' as const),
      operation: o.operation ?? 'set-interval',
      quick: o.quick,
      rounds: o.rounds,
      runsPerRound: o.runsPerRound,
      stepsMax: o.stepsMax,
      workers: o.workers,
      seed: o.seed,
      warmUpSeconds: o.warmUpSeconds,
      warmUpSteps: o.warmUpSteps,
      killSeeds: o.killSeeds,
      proveCases: o.proveCases,
    },
    throughput,
    kills,
    ...(postgres ? { templateCopies: templateCopies() - copiesBefore } : {}),
    ...(proveSection ? { prove: proveSection } : {}),
    checker,
    soakCheck,
    memory: memory.stop(),
    elapsedSeconds: (performance.now() - started) / 1000,
  };
  return { ...partial, targets: checkTargets(partial) };
}

type Totals = Record<PathName, PathTotals>;

async function measureThroughput(
  o: ResolvedBenchOptions,
  plugin: HandlerPlugin,
  handlerPath: string,
  fixture: Fixture,
  spec: OperationSpec,
  sample: () => void,
): Promise<ThroughputSection> {
  const files = new DatabaseFiles(plugin, fixture);
  // One warm connection per storage kind for the whole bench: the ceiling pays no set-up.
  const fileDb = openConnection(files.fresh());
  const reset = templateResetter(files.fresh());
  const memoryDb = openMemoryCopy(templateImage(plugin, fixture));
  const totals = emptyTotals();
  const mix = { fixture, spec, stepsMax: o.stepsMax, recreate: !!plugin.recreate };
  const raw = (path: PathTotals, db: Connection, sequences: readonly (readonly Event[])[]) => () =>
    rawPath(path, plugin, db, reset, fixture, sequences);
  const harness = (into: Totals, names: readonly PathName[], seed: number) =>
    HARNESS_PATHS.filter((p) => names.includes(p.name)).map(
      (p) => () => modePath(into[p.name], p, o, seed),
    );
  try {
    // Two phases, so that concurrent mode's warm pool and scheduled mode's lane workers (four
    // threads each, 30-54 MB apiece) never coexist. Each mode's ratio is to a raw path in its own
    // round, so splitting the rounds keeps every ratio within one phase.
    // Each phase starts with an untimed warm-up (`bench-rounds.ts`).
    await benchRounds(o, 'throughput', totals, sample, (seed, into) => {
      const sequences = stepMix(mix, seed, o.runsPerRound);
      return [
        raw(into.raw, fileDb, sequences),
        raw(into.rawInMemory, memoryDb, sequences),
        ...harness(into, ['sequential', 'concurrent', 'asyncSequential'], seed),
      ];
    });
    // Concurrent mode's warm pool has served its rounds; scheduled mode and the rest run without it.
    await destroyIdlePool();
    // The lane workers start before the warm-up, untimed: starting four threads (tsx in each) took
    // the thread-lane path's whole warm-up CPU second, so its warm-up ended after one check and the
    // timed rounds met workers whose code V8 was still compiling. They wait for the first check
    // (`IDLE_KEEP_MS`); a plugin that cannot load in a worker is reported by the check itself.
    await startLaneWorkers(handlerPath, fixture.principals.length, laneCount(o.workers)).catch(
      () => {},
    );
    await benchRounds(o, 'scheduled throughput', totals, sample, (seed, into) => [
      raw(into.rawScheduledMix, fileDb, scheduledStepMix(mix, seed, o.runsPerRound)),
      ...harness(into, ['scheduled', 'scheduledThreads', 'asyncScheduled'], seed),
    ]);
  } finally {
    fileDb.close();
    memoryDb.close();
    files.dispose();
    // Neither kind of worker is needed again; idle, they would still count in the peak memory
    // of the checker and the mutants timed next.
    await destroyIdlePool();
    await closeIdleLaneWorkers();
  }
  return throughputSection(totals);
}

/** The lane workers a scheduled runner starts with (`LaneChoice.useThreads`). */
function laneCount(workers: number): number {
  return Math.min(4, Math.max(1, workers));
}

async function rawPath(
  totals: PathTotals,
  plugin: HandlerPlugin,
  db: Connection,
  reset: ResetToTemplate,
  fixture: Fixture,
  sequences: readonly (readonly Event[])[],
): Promise<void> {
  totals.rounds.push(await measureRaw(plugin, db, reset, fixture.principals, sequences));
}

async function measureCheckerRuns(o: ResolvedBenchOptions): Promise<CheckerFigure> {
  const runs = [];
  for (let i = 0; i < o.checkerRuns; i++) {
    o.onProgress(
      `checker ${i + 1}/${o.checkerRuns}: ${o.historyEntries} calls from ${o.historyClients} clients`,
    );
    runs.push(await measureChecker(o.historyEntries, o.historyClients, i + 1));
  }
  return {
    entries: o.historyEntries,
    clients: o.historyClients,
    seconds: median(runs.map((r) => r.seconds)),
    perRun: runs.map((r) => r.seconds),
    verdicts: runs.map((r) => r.verdict),
  };
}

/** A catalogued mutant to time, with the operation whose catalogue lists it. */
interface KillEntry {
  readonly name: string;
  readonly mode: MutantEntry['mode'];
  readonly operation: string | undefined;
}

/** The measured operation's SQLite catalogue, or the mutants `o.mutants` names. */
function sqliteMutants(o: ResolvedBenchOptions): KillEntry[] {
  return catalogueOf(o.operation)
    .filter((m) => !o.mutants || o.mutants.includes(m.name))
    .map((m) => ({ name: m.name, mode: m.mode, operation: o.operation }));
}

/** Every operation's PostgreSQL mutants, or those `o.mutants` names. */
function postgresMutants(o: ResolvedBenchOptions): KillEntry[] {
  return CATALOGUES.flatMap((c) =>
    catalogueOf(c.operation, 'postgres')
      .filter((m) => !o.mutants || o.mutants.includes(m.name))
      .map((m) => ({ name: m.name, mode: m.mode, operation: c.operation })),
  );
}

async function measureKills(
  o: ResolvedBenchOptions,
  entries: readonly KillEntry[],
  sample: () => void,
): Promise<KillFigure[]> {
  const kills: KillFigure[] = [];
  for (const [i, entry] of entries.entries()) {
    o.onProgress(`time to kill ${i + 1}/${entries.length}: ${entry.name} (${entry.mode})`);
    kills.push(await timeToKill(entry, o.killSeeds, o.workers, entry.operation));
    sample();
  }
  return kills;
}

/**
 * `prove` against random sampling: every race mutant of every operation on the measured engine
 * (random scheduled mode's time to kill from `kills`, or timed here for the other operations'
 * SQLite mutants), then the coverage of the measured handler's schedules.
 */
async function measureProve(
  o: ResolvedBenchOptions,
  postgres: boolean,
  kills: readonly KillFigure[],
  sample: () => void,
): Promise<NonNullable<BenchReport['prove']>> {
  const engine = postgres ? 'postgres' : 'sqlite';
  const races = CATALOGUES.flatMap((c) =>
    catalogueOf(c.operation, engine)
      .filter((m) => m.mode === 'scheduled' && (!o.mutants || o.mutants.includes(m.name)))
      .map((m) => ({ name: m.name, mode: m.mode, operation: c.operation })),
  );
  const mutants: RaceMutant[] = [];
  for (const m of races) {
    const random =
      kills.find((k) => k.mutant === m.name) ??
      (await timeToKill(m, o.killSeeds, o.workers, m.operation));
    mutants.push({ name: m.name, operation: m.operation, random });
  }
  const proveKilled = await proveKills(mutants, o.proveSchedulesMax, o.onProgress);
  sample();
  const coverage = await measureCoverage({
    handler: o.handler,
    operation: o.operation,
    cases: o.proveCases,
    seed: o.seed,
    schedulesMax: o.proveSchedulesMax,
    onProgress: o.onProgress,
  });
  sample();
  return { kills: proveKilled, coverage };
}
