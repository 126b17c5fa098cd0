/**
 * The shell both unscheduled PostgreSQL modes share: one `PostgresSession` for the runner's life,
 * its run database reset after every sequence (while the run is judged) and before one that does
 * not find it fresh, and kept a moment for the next runner when this one closes.
 */
import type { PostgresHandlerPlugin } from '../../handlers/postgres/plugin.ts';
import type { Step } from '../../model/events.ts';
import type { Fixture } from '../../model/world.ts';
import type { Execution } from '../../types/execution.ts';
import type { ModeRunner } from '../mode-runner.ts';
import { throwIfInterrupted } from '../runtime/interrupt.ts';
import { PostgresSession } from './postgres-session.ts';

/** What sequential and concurrent mode on PostgreSQL need from the resolved options. */
export interface PostgresModeOptions {
  readonly fixture: Fixture;
  readonly callTimeoutMs: number;
  /** The server to use; undefined for the embedded one. */
  readonly databaseUrl: string | undefined;
}

/** Opens a runner whose sequences `run` executes; its template and run database are made at once. */
export async function sessionRunner(
  plugin: PostgresHandlerPlugin,
  options: PostgresModeOptions,
  run: (session: PostgresSession, steps: readonly Step[]) => Promise<Execution>,
): Promise<ModeRunner> {
  const session = await PostgresSession.open(plugin, options.fixture, options.databaseUrl);
  return {
    async execute(steps) {
      throwIfInterrupted();
      await session.begin();
      const execution = await run(session, steps);
      session.finish();
      return execution;
    },
    close: () => session.release(),
  };
}
