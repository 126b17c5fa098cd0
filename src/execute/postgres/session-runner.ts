/**
 * The shell both unscheduled PostgreSQL modes share: `PostgresSession`s for the runner's life,
 * each one's run database reset after every sequence it ran (while the run is judged) and before
 * one that does not find it fresh, and kept a moment for the next runner when this one closes.
 *
 * On the embedded server a runner holds two sessions, each on a run database of its own, and
 * runs its sequences on them in turn: while one runs, the other's reset goes on beside it, so a
 * run starts on a database its reset had a whole run to put back, not one the judge's time
 * alone (measured, pg-reference sequential under load: the next run waited 1.5-2 ms for its
 * reset, a fifth of a run). Every run still starts on a database reset as `setup` left it and
 * on connections cleaned of the last run on them; two databases never share a lock. The second
 * opens beside the first runs (a kept one at once, a new one in a few hundred milliseconds of
 * the server's time), and both go to the next runner (`idle-database.ts` keeps two). On a user's
 * server nothing is kept, so a second database would be made and dropped for every runner: one.
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
  const open = () => PostgresSession.open(plugin, options.fixture, options.databaseUrl);
  const first = await open();
  const sessions = [first];
  // A second that fails to open is only not used: the first runs every sequence then.
  const second = first.keeps ? open().catch(() => undefined) : undefined;
  void second?.then((s) => s && sessions.push(s));
  let turn = 0;
  return {
    async execute(steps) {
      throwIfInterrupted();
      const session = sessions[turn++ % sessions.length] as PostgresSession;
      await session.begin();
      const execution = await run(session, steps);
      session.finish();
      return execution;
    },
    async close() {
      const other = await second;
      await Promise.all([first.release(), other?.release()]);
    },
  };
}
