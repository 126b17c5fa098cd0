/**
 * Fresh databases for runs, fast: the plugin's `setup` runs once into a template file, and each
 * run gets a byte copy of it. Every file lives under one temp directory, removed on `dispose()`
 * and, as a last resort, when the process exits or is interrupted.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { messageOf, ReceiptcheckError } from '../errors.ts';
import type { Connection, HandlerPlugin } from '../handlers/plugin.ts';
import type { Fixture } from '../model/world.ts';

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
 * Opens a private in-memory database holding a copy of `image` (see `DatabaseFiles.image`), with
 * the harness's busy timeout. One connection sees exactly what it would see on a file copy; only
 * the journal differs (in memory, not WAL), which no single connection can observe.
 */
export function openMemoryCopy(image: Buffer, busyTimeoutMs = BUSY_TIMEOUT_MS): Connection {
  return new Database(image, { timeout: busyTimeoutMs });
}

const live = new Set<string>();
let hooked = false;

function removeAllOnExit(): void {
  if (hooked) return;
  hooked = true;
  process.once('exit', () => {
    for (const dir of live) rmSync(dir, { recursive: true, force: true });
  });
}

/** A temp directory holding one template database and the per-run copies made from it. */
export class DatabaseFiles {
  readonly dir: string;
  readonly templatePath: string;
  private counter = 0;
  private bytes: Buffer | undefined;

  /** Creates the directory and runs `plugin.setup` once into the template. */
  constructor(plugin: HandlerPlugin, fixture: Fixture) {
    this.dir = mkdtempSync(join(tmpdir(), 'receiptcheck-'));
    live.add(this.dir);
    removeAllOnExit();
    this.templatePath = join(this.dir, 'template.sqlite');
    const db = openConnection(this.templatePath);
    try {
      plugin.setup(db, fixture);
    } catch (thrown) {
      db.close();
      this.dispose();
      throw new ReceiptcheckError(
        'E_HANDLER_SETUP',
        `handler "${plugin.name}": setup(db, fixture) threw: ${messageOf(thrown)}`,
        { cause: thrown },
      );
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

  /**
   * The template's bytes, read once, for `openMemoryCopy`. The header is marked as a rollback-journal
   * database (bytes 18–19 from 2, WAL, to 1), since SQLite cannot open a WAL image in memory.
   */
  image(): Buffer {
    if (!this.bytes) {
      const bytes = readFileSync(this.templatePath);
      bytes[18] = 1;
      bytes[19] = 1;
      this.bytes = bytes;
    }
    return this.bytes;
  }

  /** Removes a run's database and its WAL side files. */
  remove(path: string): void {
    for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
  }

  /** Removes the whole directory. Safe to call twice. */
  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
    live.delete(this.dir);
  }
}
