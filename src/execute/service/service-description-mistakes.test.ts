/**
 * A service description's mistakes that only show against its database or its declared policy:
 * each is one `E_SERVICE_DESCRIPTION` line naming the field, before the service starts, rather
 * than an internal error in the middle of a run or a counterexample that blames the service. The
 * world's statements are tried on the template (`service-world-probe.ts`); no service runs here.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { isReceiptcheckError } from '../../errors.ts';
import { DEFAULT_FIXTURE } from '../../model/world.ts';
import { resolveHandlerPath } from '../runtime/load-plugin.ts';
import { SqliteServiceDatabase } from './database/sqlite-service-database.ts';
import { loadService } from './load-service.ts';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const EXAMPLE = JSON.parse(readFileSync(join(REPO, 'examples/python-http/service.json'), 'utf8'));

/** The example's description, as loose JSON that each case changes. */
// biome-ignore lint/suspicious/noExplicitAny: a test edits a parsed JSON document in place.
type Description = Record<string, any>;

const dir = mkdtempSync(join(tmpdir(), 'rc-service-mistakes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes the example changed by `change`; its path. */
function described(change: (d: Description) => void): string {
  const d = structuredClone(EXAMPLE);
  change(d);
  const path = join(dir, 'd.json');
  writeFileSync(path, JSON.stringify(d));
  return path;
}

/** `CODE: message` of what `work` throws, the description's path left out; `ok` if nothing. */
function errorOf(work: () => unknown, path = join(dir, 'd.json')): string {
  try {
    work();
    return 'ok';
  } catch (thrown) {
    if (!isReceiptcheckError(thrown)) throw thrown;
    return `${thrown.code}: ${thrown.message.replace(`service description ${path}: `, '')}`;
  }
}

/** What setting the description's database up throws, for the example changed by `change`. */
function setupError(change: (d: Description) => void): string {
  const plugin = loadService(described(change));
  return errorOf(() => new SqliteServiceDatabase(plugin, DEFAULT_FIXTURE).dispose());
}

describe('a service description checked before its service starts', () => {
  it('the example sets up without a complaint', () => {
    expect(setupError(() => {})).toBe('ok');
  });

  it.each([
    [
      'a policy switch misspelt',
      (d: Description) => {
        d.policy = { idempotencyFrist: true };
      },
      /^E_SERVICE_DESCRIPTION: "policy.idempotencyFrist" is not a policy switch/,
    ],
    [
      'an expiry in ms, which needs a clock a service cannot offer',
      (d: Description) => {
        d.policy = { receiptExpiry: 1000 };
      },
      /^E_SERVICE_DESCRIPTION: "policy.receiptExpiry" in ms needs a clock receiptcheck can move/,
    ],
    [
      'a store failure without its restore',
      (d: Description) => {
        d.world.failReceipts =
          'CREATE TRIGGER down BEFORE INSERT ON receipts BEGIN SELECT RAISE(ABORT, 1); END';
      },
      /^E_SERVICE_DESCRIPTION: "world.failReceipts" is given without "world.restoreReceipts"/,
    ],
    [
      'a cwd that is not a folder',
      (d: Description) => {
        d.cwd = 'no-such-folder';
      },
      /^E_SERVICE_DESCRIPTION: "cwd" names .*no-such-folder, which is not a folder/,
    ],
  ])('%s: one line when it is read', (_, change, expected) => {
    const path = described(change);
    const error = errorOf(() => loadService(path), path);
    expect(error).toMatch(expected);
    expect(error).not.toContain('\n');
  });

  it('a description that does not exist is named as one', () => {
    expect(errorOf(() => resolveHandlerPath('nope.json', dir))).toBe(
      `E_SERVICE_DESCRIPTION: service description nope.json does not exist (looked at ${join(dir, 'nope.json')})`,
    );
  });

  it.each([
    [
      'a world statement with a parameter it is not given',
      (d: Description) => {
        d.world.move = 'UPDATE automations SET workspace = :ws WHERE id = :id';
      },
      'its "world.move" statement failed: Missing named parameter "ws"',
    ],
    [
      'a world statement on a column that does not exist',
      (d: Description) => {
        d.world.delete = ['DELETE FROM automations WHERE idx = :id'];
      },
      'its "world.delete[0]" statement failed: no such column: idx',
    ],
    [
      'the default store failure with no table named receipts',
      (d: Description) => {
        d.setup.schema[1] = d.setup.schema[1].replace('TABLE receipts', 'TABLE idem');
        d.snapshot.receipts = 'SELECT * FROM idem';
      },
      'its "world.failReceipts" statement failed: no such table: main.receipts (not given, so the default ran',
    ],
    [
      'a restore that leaves the failure in place',
      (d: Description) => {
        d.world.failReceipts =
          'CREATE TRIGGER idem_down BEFORE INSERT ON receipts BEGIN SELECT RAISE(ABORT, 1); END';
        d.world.restoreReceipts = 'DROP TRIGGER IF EXISTS receiptcheck_fail_receipts';
      },
      'its "world.restoreReceipts" does not undo its "world.failReceipts": after both, trigger idem_down is left',
    ],
    [
      'a snapshot without a column the model reads',
      (d: Description) => {
        d.snapshot.automations =
          'SELECT id, workspace, interval_minutes AS intervalMinutes FROM automations';
      },
      'its "snapshot" statements give a snapshot that has a malformed automations row',
    ],
    [
      'a schema statement SQLite cannot read',
      (d: Description) => {
        d.setup.schema.push('CREATE TABLE broken (');
      },
      'its "setup.schema[2]" statement failed: incomplete input',
    ],
  ])('%s: one line naming its field, before any run', (_, change, expected) => {
    const error = setupError(change);
    expect(error).toMatch(/^E_SERVICE_DESCRIPTION: service "python-http": /);
    expect(error).toContain(expected);
    expect(error).not.toContain('\n');
  });
});
