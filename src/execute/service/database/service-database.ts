/**
 * The database a described service runs on, owned by the harness, as the runner sees it: one
 * port with an implementation per engine (`sqlite-service-database.ts`, a file the service opens;
 * `pg-service-database.ts`, a database on the PostgreSQL server the harness starts or is given),
 * so the runner neither knows nor cares which (`open-service-database.ts` picks). The description's setup runs once; before every
 * run the database is put back as setup left it **in place**, so the service keeps its
 * connections (and whatever it prepared on them) from run to run. That is why a service must
 * hold no transaction open between requests: the reset waits on nothing else.
 */
import type { CallEvent, Event } from '../../../model/events.ts';
import type { Snapshot } from '../../../model/world.ts';

/** A world event that reaches the database (not a scope change, which is the harness's alone). */
export type DatabaseEvent = Exclude<Event, CallEvent | { kind: 'revoke' } | { kind: 'restore' }>;

/** A service's database, its setup done, and the harness's own connection to it. */
export interface ServiceDatabase {
  readonly engine: 'sqlite' | 'postgres';
  /**
   * What the service is given to find its database (in `database.env`): the SQLite file's path,
   * or a `postgres://` URL. Read it again after `reset` says the database moved.
   */
  readonly location: string;
  /**
   * Puts the database back as setup left it, between runs. The service must be idle, with no
   * transaction open. Resolves `true` when the database moved (`location` changed, every
   * connection to the old one ended: the service must be started again), else `false`.
   */
  reset(): Promise<boolean>;
  /** Applies a world event with the description's SQL, on the harness's connection. */
  apply(event: DatabaseEvent): Promise<void>;
  /** Reads the tables back with the description's SELECTs, as the model's snapshot. */
  snapshot(): Promise<Snapshot>;
  /**
   * The service was stopped mid-run (a call hung): ends whatever the database still serves of
   * it, so that what it held is rolled back before the snapshot is read.
   */
  serviceStopped(): Promise<void>;
  /** Closes the harness's connection and removes or drops the database. Safe to call twice. */
  dispose(): Promise<void>;
}
