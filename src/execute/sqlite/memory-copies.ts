/**
 * Sequential mode's fresh database per sequence, without opening one per sequence. Opening an
 * in-memory copy of the template, loading its schema on the first statement and preparing the
 * handler's statements again took about a fifth of a sequential step's CPU: more than the
 * handler's own SQL in memory. So one copy is kept, and before it is lent again it is brought
 * back to the template's exact contents: every table's rows deleted and the template's rows put
 * back under their own rowids, `sqlite_sequence` included, in one transaction on statements
 * prepared once. The schema is untouched, so the statements a handler cached stay compiled.
 *
 * The rows are only put back when some may have changed: when neither `total_changes()` nor the
 * schema version moved since they were last put back, they still are the template's.
 *
 * A reset is only done when nothing but rows can differ from a fresh copy: the kept copy is
 * checked first for a temporary schema object, an attached database, and the connection settings
 * a handler might have changed (`PRAGMA foreign_keys`, `user_version`, `query_only`, …) against a
 * fresh copy's values (`memory-template.ts`; read only once SQL the copy was given could have
 * changed one, `settings-watch.ts`), and for the schema version, which every DDL
 * statement bumps. A changed schema is compared with the template's: triggers a run added (a
 * user's store-failure trigger) are dropped, the template's own triggers (exactly its SQL) are
 * kept, and anything else (a table a handler made or altered, a template trigger dropped or
 * replaced) gets a fresh copy instead, as does any other difference, or a reset that fails: a
 * transaction a handler left open is rolled back first, as the runner does anyway. A template
 * with virtual tables, or with a trigger that can do more than abort, never reuses its copy
 * (`memory-template.ts`). The template's abort-only triggers, such as the bundled handlers'
 * receipt-store switch (`store-switch.ts`), stay: the flag table that arms them is restored like
 * any other table, before the tables they guard, so a store a run left down is up again.
 *
 * What a reused connection cannot hide: `last_insert_rowid()` and `total_changes()` carry over
 * (as on any pooled connection in production), `PRAGMA schema_version` reads higher after a
 * trigger came and went, and functions or collations a plugin registered stay registered. A
 * plugin not declared `replayable` is given a new connection object per sequence over the kept
 * one (`run-sequential.ts`), as concurrent mode does, so state it keeps per connection object
 * does not outlive the sequence.
 */
import type Database from 'better-sqlite3';
import type { Connection } from '../../handlers/plugin.ts';
import { openMemoryCopy, rollbackLeaked } from './databases.ts';
import {
  quote,
  readTemplateContents,
  SCHEMA_SQL,
  STATE_SQL,
  stateStatements,
  type TemplateContents,
} from './memory-template.ts';
import { type SettingsWatch, watchSettings } from './settings-watch.ts';

/** A database in the template's state, lent for one sequence. */
export interface MemoryLease {
  readonly db: Connection;
  /** True when the database was lent before (reset since): state kept per connection object would carry over. */
  readonly reused: boolean;
  /** Gives the database back: `clean` when the run ended normally, else it is closed. */
  release(clean: boolean): void;
}

/** The kept copy with the statements its resets run, prepared on it once. */
interface Kept {
  readonly db: Connection;
  /** The schema version at which the schema was last seen equal to the template's. */
  aligned: number;
  readonly state: readonly Database.Statement[];
  readonly schema: Database.Statement;
  /** Foreign keys are enforced and some table has one: they are off while rows are put back. */
  readonly foreignKeys: boolean;
  /** `SELECT total_changes()`: rows written on the connection, ever (`resetKept`). */
  readonly changes: Database.Statement;
  /** `changes`' value when the rows were last put back; undefined before the first reset. */
  restoredAt: unknown;
  readonly begin: Database.Statement;
  readonly commit: Database.Statement;
  /** Per table, its delete and then its inserts (`TableRows`), with their values. */
  readonly restore: readonly {
    readonly statement: Database.Statement;
    readonly values: readonly unknown[];
  }[];
}

/** Lends in-memory copies of one template `image` (`templateImage`), one kept for reuse. */
export class MemoryCopies {
  /**
   * What a reset restores, read from a fresh copy at the first reset (a one-run check pays for no
   * more than its copy); `undefined` when this template cannot be reset, `null` until read.
   */
  private template: TemplateContents | undefined | null = null;
  private keptDb: Connection | undefined;
  /** What SQL the kept copy has been given, since it was opened (`settings-watch.ts`). */
  private watch: SettingsWatch | undefined;
  /** The kept copy's reset statements, prepared at its first reset. */
  private kept: Kept | undefined;
  /** The kept copy is out on a lease (a second lease at once gets a fresh copy). */
  private lent = false;
  /** The kept copy has been lent since it was opened or reset. */
  private used = false;

  constructor(
    private readonly image: Buffer,
    private readonly busyTimeoutMs?: number,
  ) {}

  /** A database holding exactly the template: the kept copy, reset, when possible; else a fresh one. */
  lease(): MemoryLease {
    if (this.template === undefined || this.lent) return this.freshLease();
    let reused = false;
    if (this.keptDb && this.used) {
      if (this.resetKept(this.keptDb)) reused = true;
      else this.drop();
    }
    if (!this.keptDb) {
      this.keptDb = this.open();
      this.watch = watchSettings(this.keptDb);
    }
    const db = this.keptDb;
    this.lent = true;
    this.used = true;
    let released = false;
    return {
      db,
      reused,
      release: (clean) => {
        if (released) return;
        released = true;
        this.lent = false;
        if (!clean && this.keptDb === db) this.drop();
      },
    };
  }

  /** Closes the kept copy. */
  close(): void {
    if (!this.lent) this.drop();
  }

  private resetKept(db: Connection): boolean {
    if (this.template === null) {
      const fresh = this.open();
      try {
        this.template = readTemplateContents(fresh);
      } finally {
        closeQuietly(fresh);
      }
    }
    const { template, watch } = this;
    if (!template || !watch) return false;
    return watch.unwatched(() => {
      this.kept ??= prepareKept(db, template);
      return resetKept(this.kept, template, watch.touched);
    });
  }

  private freshLease(): MemoryLease {
    const db = this.open();
    return { db, reused: false, release: () => closeQuietly(db) };
  }

  private open(): Connection {
    return openMemoryCopy(this.image, this.busyTimeoutMs);
  }

  private drop(): void {
    const db = this.keptDb;
    this.keptDb = undefined;
    this.kept = undefined;
    this.watch = undefined;
    this.used = false;
    if (db) closeQuietly(db);
  }
}

function prepareKept(db: Connection, template: TemplateContents): Kept {
  return {
    db,
    aligned: template.state[0] as number,
    state: stateStatements(db),
    schema: db.prepare(SCHEMA_SQL).raw(true),
    foreignKeys:
      template.foreignKeys && template.state[STATE_SQL.indexOf('PRAGMA foreign_keys')] === 1,
    changes: db.prepare('SELECT total_changes()').pluck(),
    restoredAt: undefined,
    begin: db.prepare('BEGIN'),
    commit: db.prepare('COMMIT'),
    restore: template.tables.flatMap((t) => [
      { statement: db.prepare(t.clearSql), values: [] },
      ...t.inserts.map((insert) => ({ statement: db.prepare(insert.sql), values: insert.values })),
    ]),
  };
}

/**
 * Brings `kept` back to the template's rows; false when only a fresh copy can (see above). Its
 * settings are read only when some SQL it was given may have changed them (`settingsTouched`).
 */
function resetKept(kept: Kept, template: TemplateContents, settingsTouched: boolean): boolean {
  try {
    if (!kept.db.open) return false;
    rollbackLeaked(kept.db);
    if (settingsTouched && !settingsAsFresh(kept, template)) return false;
    // The schema version apart: any DDL bumps it, and the schema is then compared.
    const version = (kept.state[0] as Database.Statement).get() as number;
    const aligned = version === kept.aligned;
    if (!aligned && !alignSchema(kept, template)) return false;
    // Every row an INSERT, UPDATE or DELETE writes counts in total_changes(), a trigger's, a
    // truncating DELETE's and a rolled-back one's included; what else moves rows (VACUUM
    // renumbers rowids) is DDL to SQLite and bumps the schema version. Neither moved since the
    // rows were last put back: they still are the template's, as after a sequence of refusals.
    if (aligned && kept.changes.get() === kept.restoredAt) return true;
    restoreRows(kept);
    kept.restoredAt = kept.changes.get();
    return true;
  } catch {
    // A connection a handler left busy (an open iterator) or broke: a fresh copy instead.
    return false;
  }
}

/** Whether every setting `STATE_SQL` reads but the schema version is as on a fresh copy. */
function settingsAsFresh(kept: Kept, template: TemplateContents): boolean {
  for (let i = 1; i < kept.state.length; i++)
    if ((kept.state[i] as Database.Statement).get() !== template.state[i]) return false;
  return true;
}

/** Deletes every table's rows and inserts the template's. */
function restoreRows(kept: Kept): void {
  // Setting a pragma takes effect when it is prepared: this one cannot be prepared once.
  if (kept.foreignKeys) kept.db.pragma('foreign_keys = OFF');
  // One transaction: each statement would otherwise journal and commit on its own.
  try {
    kept.begin.run();
    for (const { statement, values } of kept.restore) statement.run(values);
    kept.commit.run();
  } finally {
    if (kept.foreignKeys) kept.db.pragma('foreign_keys = ON');
  }
}

/**
 * After DDL: drops the triggers a run added when the rest of the schema, the template's own
 * triggers included, is the template's; false when anything else changed.
 */
function alignSchema(kept: Kept, template: TemplateContents): boolean {
  const objects = kept.schema.all() as [string, string, string, string | null][];
  const rest = objects.filter(([type]) => type !== 'trigger');
  if (JSON.stringify(rest) !== template.schema) return false;
  const added: string[] = [];
  let own = 0;
  for (const object of objects) {
    if (object[0] !== 'trigger') continue;
    if (template.triggers.has(JSON.stringify(object))) own++;
    else added.push(object[1]);
  }
  // Names are unique, so as many own triggers as the template's means every one of them.
  if (own !== template.triggers.size) return false;
  for (const name of added) kept.db.exec(`DROP TRIGGER main.${quote(name)}`);
  kept.aligned = (kept.state[0] as Database.Statement).get() as number;
  return true;
}

/** Closes `db`; a connection a stopped call left mid-statement may refuse, and is dropped. */
export function closeQuietly(db: Connection): void {
  try {
    db.close();
  } catch {
    // Garbage collection closes it.
  }
}
