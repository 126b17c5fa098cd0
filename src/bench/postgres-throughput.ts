/**
 * The throughput section for a PostgreSQL plugin, by the SQLite section's method: raw (the
 * plugin's calls and world events on one warm connection, `execute/postgres/raw-loop.ts`) and
 * the harness in every mode alternate in rounds on the same seeds, the order reversed every
 * other round, and each mode is a ratio to raw on the sequences it ran. PostgreSQL has no
 * in-memory copy of the template, so that raw path is reported as not applying. An untimed
 * warm-up comes first, as on SQLite.
 */

import { PostgresRawLoop } from '../execute/postgres/raw-loop.ts';
import type { PostgresHandlerPlugin } from '../handlers/postgres/plugin.ts';
import type { OperationSpec } from '../model/operation.ts';
import type { Fixture } from '../model/world.ts';
import type { ResolvedBenchOptions } from './bench-options.ts';
import type { ThroughputSection } from './bench-report.ts';
import { benchRounds } from './bench-rounds.ts';
import { HARNESS_PATHS, modePath } from './harness-throughput.ts';
import { scheduledStepMix, stepMix } from './step-mix.ts';
import { emptyTotals, throughputSection } from './throughput-totals.ts';

/** Why raw on an in-memory copy does not apply on PostgreSQL. */
const NO_IN_MEMORY = 'does not apply on PostgreSQL (no in-memory copy of the template)';

/** Why scheduled mode on thread lanes does not apply on PostgreSQL. */
const NO_THREAD_LANES =
  'does not apply on PostgreSQL (its scheduled mode has one kind of lane, measured above)';

/** Raw against every harness mode for `plugin`, interleaved in rounds. */
export async function measurePostgresThroughput(
  o: ResolvedBenchOptions,
  plugin: PostgresHandlerPlugin,
  fixture: Fixture,
  spec: OperationSpec,
  sample: () => void,
): Promise<ThroughputSection> {
  const totals = emptyTotals();
  totals.rawInMemory.unavailable = NO_IN_MEMORY;
  totals.scheduledThreads.unavailable = NO_THREAD_LANES;
  const mix = { fixture, spec, stepsMax: o.stepsMax, recreate: !!plugin.recreate };
  o.onProgress('starting PostgreSQL and making the template');
  // One warm connection for the whole bench, as on SQLite: the ceiling pays no set-up.
  const raw = await PostgresRawLoop.open(plugin, fixture);
  try {
    // After an untimed warm-up, as on SQLite (`bench-rounds.ts`).
    await benchRounds(o, 'PostgreSQL throughput', totals, sample, (seed, into) => {
      const sequences = stepMix(mix, seed, o.runsPerRound);
      const scheduledSequences = scheduledStepMix(mix, seed, o.runsPerRound);
      return [
        async () => void into.raw.rounds.push(await raw.measure(sequences)),
        async () => void into.rawScheduledMix.rounds.push(await raw.measure(scheduledSequences)),
        ...HARNESS_PATHS.map((p) => () => modePath(into[p.name], p, o, seed)),
      ];
    });
  } finally {
    await raw.close();
  }
  return throughputSection(totals);
}
