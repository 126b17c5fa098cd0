/**
 * The mode runners for a described service, sequential and concurrent, on this thread: calls go
 * to the running service through its protocol client; world events, resets and snapshots run as
 * the description's SQL on the harness's connection to the service's database, whichever its
 * engine (`service-database.ts`). Sequential mode sends one call at a time (a group's calls in
 * lane order) and returns a trace; concurrent mode sends a group's calls at once, so they overlap
 * inside the service, and returns the history with times that the linearizability checker
 * judges, as the other engines' concurrent modes do.
 *
 * Scheduled mode needs every statement the service sends to be a yield point of the harness; a
 * service on SQLite runs its statements inside its own process, out of the harness's reach, so
 * scheduled mode refuses it (`E_SERVICE_MODE`). A service on PostgreSQL gets its database's
 * address through the harness's wire proxy instead, which makes every statement a yield point
 * (`scheduled/`).
 *
 * A call that does not answer within the call budget is a hang: the requests in flight are
 * abandoned, the service is stopped (which rolls back what it held), the snapshot is read, and
 * the next run starts a new service. The service is started once per runner otherwise.
 */
import { ReceiptcheckError } from '../../errors.ts';
import { pluginOperation } from '../../handlers/plugin.ts';
import { type CallEvent, type Event, type Step, unsentOutcome } from '../../model/events.ts';
import type { Observed } from '../../model/outcome.ts';
import { afterScopeChange, type Principal } from '../../model/world.ts';
import type { Execution } from '../../types/execution.ts';
import type { RunOptions } from '../../types/options.ts';
import type { Hang } from '../../types/verdict.ts';
import { ConcurrentRecord } from '../concurrent-record.ts';
import { type ModeRunner, UNREADABLE_SNAPSHOT } from '../mode-runner.ts';
import { throwIfInterrupted } from '../runtime/interrupt.ts';
import { sendMapped } from './answer-mapping.ts';
import { openServiceDatabase } from './database/open-service-database.ts';
import type { ServiceDatabase } from './database/service-database.ts';
import type { ProtocolClient } from './protocol.ts';
import { describedServiceScheduledRunner } from './scheduled/described-service.ts';
import { ServiceConnection } from './service-connection.ts';
import type { ServicePlugin } from './service-plugin.ts';

/** Opens the runner of `options.mode` for `plugin`: its database made, its service started. */
export async function serviceRunner(
  plugin: ServicePlugin,
  options: RunOptions,
): Promise<ModeRunner> {
  if (options.mode === 'scheduled') {
    if (plugin.service.database.engine === 'postgres')
      return describedServiceScheduledRunner(plugin, options);
    throw new ReceiptcheckError(
      'E_SERVICE_MODE',
      `service "${plugin.name}" runs its SQLite statements in its own process, where the scheduler cannot pause them: neither scheduled mode nor prove can run it; check it with run --mode sequential or --mode concurrent, or put the service on PostgreSQL`,
    );
  }
  const database = await openServiceDatabase(plugin, options);
  const connection = new ServiceConnection(plugin, () => database.location);
  try {
    await connection.ready();
  } catch (thrown) {
    await database.dispose();
    throw thrown;
  }
  let closed: Promise<void> | undefined;
  return {
    async execute(steps) {
      throwIfInterrupted();
      let client = await connection.ready();
      // A reset that moved the database ended the service's connections: it starts anew.
      if (await database.reset()) {
        connection.markBroken();
        client = await connection.ready();
      }
      const run = new ServiceRun(plugin, database, connection, client, options);
      return await run.execute(steps, options.mode === 'concurrent');
    },
    close() {
      closed ??= connection.close().finally(() => database.dispose());
      return closed;
    },
  };
}

/** What one operation of a step came to; `undefined` in `ran` while it has not settled. */
interface Ran {
  readonly observed?: Observed;
  readonly invokedAt: number;
  readonly completedAt: number;
}

/** One run: its steps, then the snapshot. */
class ServiceRun {
  private readonly started = performance.now();
  private readonly record = new ConcurrentRecord();
  private principals: readonly Principal[];
  private readonly abort = new AbortController();

  constructor(
    private readonly plugin: ServicePlugin,
    private readonly database: ServiceDatabase,
    private readonly connection: ServiceConnection,
    /** The run's client, for every call of it: a service that dies is started again next run. */
    private readonly client: ProtocolClient,
    private readonly options: RunOptions,
  ) {
    this.principals = options.fixture.principals;
  }

  async execute(steps: readonly Step[], together: boolean): Promise<Execution> {
    let hang: Hang | undefined;
    for (const [step, s] of steps.entries()) {
      throwIfInterrupted();
      const events = s.kind === 'concurrent' ? s.events : [s];
      // Sequential mode: one event at a time, in lane order; concurrent: the group at once.
      const batches = together
        ? [events.map((e, lane) => ({ e, lane }))]
        : events.map((e, lane) => [{ e, lane }]);
      for (const batch of batches) {
        const ran: (Ran | undefined)[] = batch.map(() => undefined);
        const all = Promise.all(
          batch.map(({ e }, i) =>
            this.operate(e, i > 0).then((r) => {
              ran[i] = r;
            }),
          ),
        );
        if (!(await this.withinBudget(all))) {
          const stuck = batch.find((_, i) => ran[i] === undefined) ?? batch[0];
          hang = {
            step,
            lane: stuck?.lane ?? 0,
            limitMs: this.options.callTimeoutMs,
            how: 'unsettled',
            ...(stuck ? { event: stuck.e } : {}),
          };
          break;
        }
        for (const [i, { e, lane }] of batch.entries()) this.keep(step, lane, e, ran[i] as Ran);
      }
      if (hang) break;
    }
    if (hang) {
      // Stopping the service ends whatever it still runs, and rolls back what it held.
      this.abort.abort();
      this.connection.markBroken();
      await this.connection.close();
      await this.database.serviceStopped();
    }
    const snapshot = await this.snapshot();
    if (together) return this.record.execution(snapshot, hang);
    const trace = { observations: this.record.observations, snapshot };
    return { mode: 'sequential', trace, ...(hang ? { hang } : {}) };
  }

  private now(): number {
    return performance.now() - this.started;
  }

  /** Runs one event; `later` lets the calls started before it go out first. */
  private async operate(event: Event, later: boolean): Promise<Ran> {
    if (event.kind === 'call') return this.call(event);
    if (later) await new Promise((resolve) => setImmediate(resolve));
    const invokedAt = this.now();
    if (event.kind === 'revoke' || event.kind === 'restore')
      this.principals = afterScopeChange(
        this.principals,
        event,
        pluginOperation(this.plugin).scope,
      );
    else await this.database.apply(event);
    return { invokedAt, completedAt: this.now() };
  }

  private async call(event: CallEvent): Promise<Ran> {
    const unsent = unsentOutcome(event);
    const invokedAt = this.now();
    if (unsent) return { observed: unsent, invokedAt, completedAt: invokedAt };
    const principal = this.principals[event.client];
    if (!principal) throw new RangeError(`no principal for client ${event.client}`);
    const { requestId, ...fields } = event.request;
    // No answer at all: the service died or broke the connection; the next run starts anew.
    const observed = await sendMapped(
      this.client,
      { requestId, principal, fields },
      this.plugin.service.answers,
      () => this.connection.markBroken(),
      this.abort.signal,
    );
    return { observed, invokedAt, completedAt: this.now() };
  }

  /** Records one settled operation in the history and, for a call, the trace. */
  private keep(step: number, lane: number, event: Event, ran: Ran): void {
    const { history, places, returnedAt, observations } = this.record;
    const id = history.length;
    places.push({ step, lane });
    const { invokedAt, completedAt, observed } = ran;
    if (event.kind !== 'call') {
      history.push({ id, client: lane, event, invokedAt, completedAt });
      returnedAt.push(undefined);
      return;
    }
    if (observed) observations.push({ step, lane, event, observed });
    // A lost response committed, but its client never heard back: its end is unknown.
    if (event.delivery === 'lostResponse') {
      history.push({ id, client: lane, event, invokedAt });
      returnedAt.push(completedAt);
    } else {
      history.push({
        id,
        client: lane,
        event,
        invokedAt,
        completedAt,
        ...(observed ? { observed } : {}),
      });
      returnedAt.push(undefined);
    }
  }

  /** Whether `work` settled within the call budget. */
  private async withinBudget(work: Promise<unknown>): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), this.options.callTimeoutMs);
    });
    try {
      return await Promise.race([work.then(() => true), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async snapshot() {
    try {
      return await this.database.snapshot();
    } catch (thrown) {
      if (this.abort.signal.aborted) return UNREADABLE_SNAPSHOT;
      throw thrown;
    }
  }
}
