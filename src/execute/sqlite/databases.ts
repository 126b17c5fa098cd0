/**
 * Fresh databases for runs, fast: the plugin's `setup` runs once into a template, and each run
 * gets a byte copy of it: an in-memory image for sequential mode, a file for the modes whose
 * connections share a database. Every file lives under one temp directory (`temp-dirs.ts`: under
 * TMPDIR), removed on `dispose()` and, as a last resort, when the process exits or is interrupted.
 */
import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { messageOf, ReceiptcheckError } from '../../errors.ts';
import type { Connection, HandlerPlugin } from '../../handlers/plugin.ts';
import type { Fixture } from '../../model/world.ts';
import { makeTempDir, removeTempDir } from '../runtime/temp-dirs.ts';

/** How long a connection waits for a lock before SQLITE_BUSY, in ms (the handler's own setting). */
export const BUSY_TIMEOUT_MS = 5_000;

/**
 * Opens a connection with the harness's settings: WAL so readers and a writer overlap as in
 * production, and no fsync, since power loss is not what receiptcheck tests.
 */
export function openConnection(path: string, busyTimeoutMs = BUSY_TIMEOUT_MS): Connection {
  const db = new Database(path, { timeout: busyTimeoutMs });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  return db;
}

/**
 * The template for one connection at a time, without touching the disk: `plugin.setup` on an
 * in-memory database, serialised. Sequential mode opens a copy per sequence (`openMemoryCopy`);
 * modes whose connections share a database use `DatabaseFiles`.
 */
export function templateImage(plugin: HandlerPlugin, fixture: Fixture): Buffer {
  const db = new Database(':memory:', { timeout: BUSY_TIMEOUT_MS });
  try {
    setUp(plugin, db, fixture);
    return db.serialize();
  } catch (thrown) {
    throw setupFailed(plugin, thrown);
  } finally {
    db.close();
  }
}

/**
 * Opens a private in-memory database holding a copy of `image` (from `templateImage`), with the
 * harness's busy timeout. One connection sees exactly what it would see on a file copy; only the
 * journal differs (in memory, not WAL), which no single connection can observe.
 */
export function openMemoryCopy(image: Buffer, busyTimeoutMs = BUSY_TIMEOUT_MS): Connection {
  return new Database(image, { timeout: busyTimeoutMs });
}

/**
 * `plugin.setup` on `db`. A SQLite plugin's setup is synchronous, as better-sqlite3 is; one that
 * returns a promise is most likely a PostgreSQL plugin without `engine: 'postgres'`, whose
 * `db.query` would fail later as a rejection no call can be blamed for: said at once.
 */
function setUp(plugin: HandlerPlugin, db: Connection, fixture: Fixture): void {
  const returned: unknown = plugin.setup(db, fixture);
  if (returned instanceof Promise) {
    returned.catch(() => {});
    throw new ReceiptcheckError(
      'E_HANDLER_SETUP',
      `handler "${plugin.name}": setup(db, fixture) returned a promise, and a SQLite plugin's setup is synchronous (better-sqlite3); a PostgreSQL plugin says engine: 'postgres' (definePostgresHandler)`,
    );
  }
}

function setupFailed(plugin: HandlerPlugin, thrown: unknown): ReceiptcheckError {
  if (thrown instanceof ReceiptcheckError) return thrown;
  return new ReceiptcheckError(
    'E_HANDLER_SETUP',
    `handler "${plugin.name}": setup(db, fixture) threw: ${messageOf(thrown)}`,
    { cause: thrown },
  );
}

/** A temp directory holding one template database and the per-run copies made from it. */
export class DatabaseFiles {
  readonly dir: string;
  readonly templatePath: string;
  private counter = 0;

  /** Creates the directory and runs `plugin.setup` once into the template. */
  constructor(plugin: HandlerPlugin, fixture: Fixture) {
    this.dir = makeTempDir(undefined);
    this.templatePath = join(this.dir, 'template.sqlite');
    const db = openConnection(this.templatePath);
    try {
      setUp(plugin, db, fixture);
    } catch (thrown) {
      db.close();
      this.dispose();
      throw setupFailed(plugin, thrown);
    }
    // Closing the last connection checkpoints the WAL, so the template is one self-contained file.
    db.close();
  }

  /** Copies the template to a new file and returns its path. */
  fresh(): string {
    const path = join(this.dir, `run-${this.counter++}.sqlite`);
    copyFileSync(this.templatePath, path);
    return path;
  }

  /** Removes a run's database and its WAL side files. */
  remove(path: string): void {
    for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
  }

  /** Removes the whole directory. Safe to call twice. */
  dispose(): void {
    removeTempDir(this.dir);
  }
}

/**
 * Rolls back a transaction a handler left open (a leak, or a crash mid-call), so that what runs
 * next on the connection (a world event, a reset, the next call) is not swallowed into it.
 */
export function rollbackLeaked(db: Connection): void {
  if (db.inTransaction) db.exec('ROLLBACK');
}
