/**
 * A described service's world, tried once on its template before the first run: the snapshot
 * read and checked for shape, the store failed and restored, a row moved, deleted and made
 * again, all rolled back. A mistake in the description's SQL (a column that does not exist, a
 * parameter it does not get, a restore that leaves the failure's trigger behind, a snapshot
 * without a column the model reads) is then one `E_SERVICE_DESCRIPTION` line naming its field,
 * before anything runs, instead of an error in the middle of a run or a counterexample that
 * blames the service for its description. Needs a database; pure otherwise.
 */
import { isReceiptcheckError, ReceiptcheckError } from '../../errors.ts';
import type { Connection, HandlerPlugin } from '../../handlers/plugin.ts';
import type { OperationSpec, Row } from '../../model/operation.ts';
import { checkSnapshotShape } from '../../model/outcome-shape.ts';
import type { Fixture, Snapshot } from '../../model/world.ts';

/** Tries every world statement of `plugin` (a described service's) on `db`, set up, and undoes them. */
export function probeWorld(
  plugin: HandlerPlugin,
  db: Connection,
  fixture: Fixture,
  spec: OperationSpec,
): void {
  plugin.snapshot(db);
  db.exec('SAVEPOINT receiptcheck_probe');
  try {
    const before = schemaOf(db);
    plugin.failReceipts(db);
    plugin.restoreReceipts(db);
    const left = schemaChanges(before, schemaOf(db));
    if (left.length > 0)
      throw new ReceiptcheckError(
        'E_SERVICE_DESCRIPTION',
        `service "${plugin.name}": its "world.restoreReceipts" does not undo its "world.failReceipts": after both, ${left.join(', ')}; a run's store would stay failed`,
      );
    const row = ((fixture as unknown as Record<string, unknown>)[spec.table] as Row[])?.[0];
    if (row) {
      plugin.move(db, row.id as number, row.workspace as string);
      plugin.delete(db, row.id as number);
      plugin.recreate?.(db, row);
    }
  } finally {
    db.exec('ROLLBACK TO receiptcheck_probe');
    db.exec('RELEASE receiptcheck_probe');
  }
}

/**
 * `tables`, read by the description's snapshot statements, checked as a plugin's snapshot is; a
 * wrong shape is the description's mistake, named as such.
 */
export function describedSnapshot(
  tables: Record<string, unknown>,
  service: string,
  spec: OperationSpec,
): Snapshot {
  try {
    return checkSnapshotShape(tables, service, spec);
  } catch (thrown) {
    if (!isReceiptcheckError(thrown) || thrown.code !== 'E_SNAPSHOT_SHAPE') throw thrown;
    const plugin = `handler "${service}": snapshot(db) `;
    throw new ReceiptcheckError(
      'E_SERVICE_DESCRIPTION',
      `service "${service}": its "snapshot" statements give a snapshot that ${thrown.message.startsWith(plugin) ? thrown.message.slice(plugin.length) : thrown.message}`,
    );
  }
}

/** Each schema object of `db`'s main database, `type name` to its SQL. */
function schemaOf(db: Connection): Map<string, string> {
  const rows = db.prepare('SELECT type, name, sql FROM main.sqlite_master').all() as {
    type: string;
    name: string;
    sql: string | null;
  }[];
  return new Map(rows.map((r) => [`${r.type} ${r.name}`, r.sql ?? '']));
}

/** What differs from `before` in `after`, in words: `trigger t is left`, `table x is gone`. */
function schemaChanges(before: Map<string, string>, after: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [object, sql] of after)
    if (!before.has(object)) out.push(`${object} is left`);
    else if (before.get(object) !== sql) out.push(`${object} is changed`);
  for (const object of before.keys()) if (!after.has(object)) out.push(`${object} is gone`);
  return out;
}
