/**
 * The bench's ceiling on PostgreSQL, as `../sqlite/raw-loop.ts` is on SQLite: the plugin's own calls and
 * world events replayed in a tight loop on one warm connection to a run database made from the
 * template, with none of the harness around them (no generation, model, checks, trace, call
 * budget). Between sequences the database is put back as `setup` left it (`PostgresSession.reset`,
 * the same reset the runners use) outside the timed part, so each sequence takes the same paths
 * through the handler as it does under the harness.
 */
import { pluginOperation } from '../../handlers/plugin.ts';
import type { PostgresHandlerPlugin } from '../../handlers/postgres/plugin.ts';
import { type Event, unsentOutcome } from '../../model/events.ts';
import { afterScopeChange, type Fixture, type Principal } from '../../model/world.ts';
import type { RawMeasure } from '../raw-measure.ts';
import { interruptPoint } from '../runtime/interrupt.ts';
import { pgWorldEvent } from './postgres-events.ts';
import { PostgresSession } from './postgres-session.ts';
import { narrow } from './session-lane.ts';

/** One warm connection for the raw loop; `close()` drops its databases and lets the server go. */
export class PostgresRawLoop {
  private constructor(
    private readonly session: PostgresSession,
    private readonly plugin: PostgresHandlerPlugin,
    private readonly fixture: Fixture,
  ) {}

  /** Starts (or joins) the server and makes the template and the run database for `plugin`. */
  static async open(
    plugin: PostgresHandlerPlugin,
    fixture: Fixture,
    databaseUrl?: string,
  ): Promise<PostgresRawLoop> {
    return new PostgresRawLoop(
      await PostgresSession.open(plugin, fixture, databaseUrl),
      plugin,
      fixture,
    );
  }

  /**
   * Replays `sequences`, resetting the database before each outside the timed part. Every event
   * counts as a step, lost requests included, as on SQLite and in the harness.
   */
  async measure(sequences: readonly (readonly Event[])[]): Promise<RawMeasure> {
    let steps = 0;
    let ms = 0;
    let cpuMicros = 0;
    for (const events of sequences) {
      await interruptPoint('while measuring the PostgreSQL raw loop');
      await this.session.begin();
      const client = await this.session.harness();
      const cpu = process.cpuUsage();
      const started = performance.now();
      await this.replay(client, events);
      ms += performance.now() - started;
      const used = process.cpuUsage(cpu);
      cpuMicros += used.user + used.system;
      steps += events.length;
    }
    return { steps, seconds: ms / 1000, cpuSeconds: cpuMicros / 1e6 };
  }

  /** Ends the connection and drops the databases. */
  close(): Promise<void> {
    return this.session.close();
  }

  private async replay(
    client: Awaited<ReturnType<PostgresSession['harness']>>,
    events: readonly Event[],
  ): Promise<void> {
    const db = narrow(client);
    let principals: readonly Principal[] = this.fixture.principals;
    for (const event of events) {
      if (event.kind === 'call') {
        if (unsentOutcome(event)) continue;
        try {
          await this.plugin.call(db, principals[event.client] as Principal, event.request);
        } catch {
          // A mutant may throw; the harness records that, the ceiling only pays for it.
        }
        // A transaction the handler left open must not swallow later events (as the runners do).
        if (client.getTransactionStatus() !== 'I') await client.query('ROLLBACK');
      } else if (event.kind === 'revoke' || event.kind === 'restore') {
        principals = afterScopeChange(principals, event, pluginOperation(this.plugin).scope);
      } else {
        await pgWorldEvent(this.plugin, db, event);
      }
    }
  }
}
