/**
 * The one database a scheduled or concurrent runner's runs share, reset to the template before
 * each run.
 *
 * Why not a fresh file per run, as elsewhere: scheduled mode's lanes each hold a connection, and
 * a fresh file means every lane opens, loads the schema and closes again on every run; measured
 * here, an open and a close cost about 0.4 ms and the first statement on a new connection pays
 * for the schema, which came to a third of a typical run. Reset in place (`reset-to-template.ts`:
 * every table's rows deleted and re-inserted, the schema realigned only when a run changed it)
 * gives each run the template's contents and schema on warm connections; nothing a handler can
 * read tells the two apart. The reset runs while every lane is idle (no lane ends a run holding
 * a transaction) on a connection of its own, opened with foreign keys off: the reset needs them
 * off, and setting that pragma expires every statement its connection has prepared, so a reset
 * on the coordinator's connection (which runs plain steps and reads the final snapshot) made it
 * compile every statement again on each run (measured: 2.2 x the reset's own cost).
 *
 * The file lives on a RAM file system (`/dev/shm`) when the machine has one and `TMPDIR` is not
 * set (`tempRoot(true)`): on a disk mounted with `discard`, file operations had millisecond
 * tails. The directory is removed on `dispose()` and, as a last resort, when the process exits.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Connection } from '../../handlers/plugin.ts';
import { makeTempDir, removeTempDir, tempRoot } from '../runtime/temp-dirs.ts';
import { rollbackLeaked } from './databases.ts';
import { keepAsOpened, stillAsOpened } from './kept-connections.ts';
import { type ResetToTemplate, templateResetter } from './reset-to-template.ts';

/**
 * Opens a lane's or the coordinator's connection: busy timeout 0 (waits are the scheduler's),
 * its settings recorded for `stillAsOpened` (`kept-connections.ts`).
 */
export function openSharedConnection(path: string): Connection {
  const db = new Database(path, { timeout: 0 });
  // The file is a copy of the template, already in WAL mode; this setting is per connection.
  db.pragma('synchronous = OFF');
  keepAsOpened(db);
  return db;
}

/** A database file, its coordinator connection, and the reset back to the template. */
export class SharedDatabase {
  readonly path: string;
  /**
   * The coordinator's connection: plain steps and snapshots, never a reset. Replaced at a reset
   * when plugin code left it otherwise than opened (`stillAsOpened`).
   */
  private coordinator: Connection;
  private readonly dir: string;
  private readonly root: string;
  private readonly kind: string;
  private readonly template: string;
  private readonly resetToTemplate: ResetToTemplate;
  /** Only resets run here, foreign keys off for its life (see the file comment). */
  private readonly resetter: Connection;
  private readonly dataVersion: Database.Statement;
  /** `resetter`'s `PRAGMA data_version` at its last reset; undefined before the first. */
  private resetAt: unknown;

  /**
   * Copies the template at `templatePath` into a new directory under `root`, named for the mode
   * that uses it (`kind`).
   */
  constructor(templatePath: string, root = tempRoot(true), kind = 'scheduled') {
    this.root = root;
    this.kind = kind;
    this.dir = makeTempDir(kind, root);
    this.template = join(this.dir, 'template.sqlite');
    copyFileSync(templatePath, this.template);
    this.resetToTemplate = templateResetter(this.template, { foreignKeysOff: true });
    this.path = join(this.dir, 'run.sqlite');
    copyFileSync(templatePath, this.path);
    this.coordinator = openSharedConnection(this.path);
    this.resetter = openSharedConnection(this.path);
    this.resetter.pragma('foreign_keys = OFF');
    this.dataVersion = this.resetter.prepare('PRAGMA data_version').pluck();
  }

  /** The coordinator's connection (see `coordinator`); read it again after each `reset`. */
  get db(): Connection {
    return this.coordinator;
  }

  /**
   * Brings the database back to the template (at once when nothing committed since), and the
   * coordinator's connection back to a new one's settings. Every lane must be idle.
   */
  reset(): void {
    // What the coordinator's connection left open would hold the write lock against the reset.
    rollbackLeaked(this.coordinator);
    if (!stillAsOpened(this.coordinator)) {
      closeOrDrop(this.coordinator);
      this.coordinator = openSharedConnection(this.path);
    }
    // A connection's data_version moves when any other connection commits (schema changes
    // included), and the resetter commits nothing but resets: unmoved, the file is still the
    // template, as for a run whose calls were all refused or rolled back (a fifth of generated runs).
    // Its own commits leave it where it was, so the value read now also holds after this reset.
    const seen = this.dataVersion.get();
    if (seen === this.resetAt) return;
    this.resetToTemplate(this.resetter);
    this.resetAt = seen;
  }

  /**
   * A new database from the same template, this one disposed: after a call the budget stopped on
   * the coordinator's connection, which may still hold a lock or a statement mid-way.
   */
  replace(): SharedDatabase {
    const fresh = new SharedDatabase(this.template, this.root, this.kind);
    this.dispose();
    return fresh;
  }

  /**
   * Closes the coordinator's connection and removes the directory. Safe to call twice. A
   * connection left mid-statement by a stopped call may refuse to close; it is dropped.
   */
  dispose(): void {
    for (const db of [this.db, this.resetter]) closeOrDrop(db);
    removeTempDir(this.dir);
  }
}

/** Closes `db`, or drops it when it refuses (a statement a stopped call left mid-way). */
function closeOrDrop(db: Connection | undefined): void {
  try {
    if (db?.open) db.close();
  } catch {
    // Garbage collection closes it; the file goes with the directory either way.
  }
}
