/**
 * A described service's database on SQLite (`service-database.ts` is the port): one file the service
 * opens (its path passed in the environment) and the harness keeps a connection to. The
 * description's setup runs once into a template beside it; before each run the file is brought
 * back to the template in place (`reset-to-template.ts`), so the service keeps its connection and
 * whatever it prepared on it. Both files live in one temp directory, removed on `dispose()` and,
 * as a last resort, when the process exits or is interrupted (`temp-dirs.ts`).
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { isReceiptcheckError, messageOf, ReceiptcheckError } from '../../../errors.ts';
import type { Connection } from '../../../handlers/plugin.ts';
import type { Fixture, Snapshot } from '../../../model/world.ts';
import { applyWorldEvent } from '../../apply-world-event.ts';
import { makeTempDir, removeTempDir } from '../../runtime/temp-dirs.ts';
import { openConnection, rollbackLeaked } from '../../sqlite/databases.ts';
import { type ResetToTemplate, templateResetter } from '../../sqlite/reset-to-template.ts';
import type { ServicePlugin } from '../service-plugin.ts';
import type { DatabaseEvent, ServiceDatabase } from './service-database.ts';

/** A service's database file, its template, and the harness's connection to it. */
export class SqliteServiceDatabase implements ServiceDatabase {
  readonly engine = 'sqlite';
  readonly dir: string;
  /** The file the service opens. */
  readonly path: string;
  /** The harness's connection: world events, resets, snapshots. */
  readonly db: Connection;
  private readonly resetter: ResetToTemplate;

  /** Makes the directory, runs the description's setup into the template, copies it. */
  constructor(
    private readonly plugin: ServicePlugin,
    fixture: Fixture,
  ) {
    this.dir = makeTempDir('service');
    try {
      const templatePath = join(this.dir, 'template.sqlite');
      const template = openConnection(templatePath);
      try {
        plugin.setup(template, fixture);
      } catch (thrown) {
        // A statement of the description that failed is named by its field already.
        if (isReceiptcheckError(thrown) && thrown.code === 'E_SERVICE_DESCRIPTION') throw thrown;
        throw new ReceiptcheckError(
          'E_HANDLER_SETUP',
          `service "${plugin.name}": the description's setup failed: ${messageOf(thrown)}`,
          { cause: thrown },
        );
      } finally {
        // Closing checkpoints the WAL: the template is one self-contained file, in WAL mode.
        template.close();
      }
      this.path = join(this.dir, 'service.sqlite');
      copyFileSync(templatePath, this.path);
      this.resetter = templateResetter(templatePath);
      this.db = openConnection(this.path);
    } catch (thrown) {
      removeTempDir(this.dir);
      throw thrown;
    }
  }

  get location(): string {
    return this.path;
  }

  /** Brings the file back to the template, in place (the service must be idle); it never moves. */
  async reset(): Promise<boolean> {
    rollbackLeaked(this.db);
    this.resetter(this.db);
    return false;
  }

  async apply(event: DatabaseEvent): Promise<void> {
    applyWorldEvent(this.plugin, this.db, event);
  }

  async snapshot(): Promise<Snapshot> {
    return this.plugin.snapshot(this.db);
  }

  /** Nothing to end: a stopped process holds no SQLite lock. */
  async serviceStopped(): Promise<void> {}

  /** Closes the connection and removes the directory. Safe to call twice. */
  async dispose(): Promise<void> {
    if (this.db.open) this.db.close();
    removeTempDir(this.dir);
  }
}
