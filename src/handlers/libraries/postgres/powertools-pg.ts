/**
 * `@aws-lambda-powertools/idempotency` on PostgreSQL: the bundled `powertools` plugin's library
 * configuration and policy, with a PostgreSQL persistence layer (`powertools-pg-persistence.ts`)
 * and the business write on the same harness-owned connection. What differs from SQLite is only
 * the store, so the findings it shares with the SQLite plugin (docs/findings.md) can be told
 * apart from what the store adds.
 */
import { makeIdempotent } from '@aws-lambda-powertools/idempotency';
import { outcome } from '../../../model/outcome.ts';
import type { Principal } from '../../../model/world.ts';
import { definePostgresHandler, type PgConnection } from '../../postgres/plugin.ts';
import { isIntegrityFailure } from '../../postgres/transaction.ts';
import { HARNESS_CLOCK_TABLE } from '../../sqlite/harness-clock.ts';
import {
  type Answer,
  callPowertools,
  POWERTOOLS_POLICY,
  powertoolsConfig,
  receiptsOfRows,
  type SetIntervalEvent,
} from '../powertools.ts';
import { POWERTOOLS_TABLE, type PowertoolsRow } from '../powertools-persistence.ts';
import { pgSetIntervalWrite } from './pg-business-write.ts';
import { advancePgHarnessClock, createPgHarnessClock } from './pg-harness-clock.ts';
import { pgLibraryWorld } from './pg-library-world.ts';
import { POWERTOOLS_PG_SCHEMA, PostgresPersistenceLayer } from './powertools-pg-persistence.ts';

const wrapped = new WeakMap<PgConnection, (event: SetIntervalEvent) => Promise<Answer>>();

/** The idempotent business function for `db`, built once per connection like a module-scope handler. */
function idempotentSetInterval(db: PgConnection): (event: SetIntervalEvent) => Promise<Answer> {
  let fn = wrapped.get(db);
  if (fn) return fn;
  const business = async (event: SetIntervalEvent): Promise<Answer> => ({
    receipt: await pgSetIntervalWrite(db, event, event),
    replayed: false,
  });
  fn = makeIdempotent(business, {
    persistenceStore: new PostgresPersistenceLayer(db),
    config: powertoolsConfig(),
  });
  wrapped.set(db, fn);
  return fn;
}

const world = pgLibraryWorld({
  table: POWERTOOLS_TABLE,
  schema: POWERTOOLS_PG_SCHEMA,
  async receipts(db) {
    const { rows } = await db.query<PowertoolsRow & { clock_ms: number }>(
      `SELECT p.*, c.advanced_ms AS clock_ms FROM ${POWERTOOLS_TABLE} p, ${HARNESS_CLOCK_TABLE} c`,
    );
    return receiptsOfRows(rows);
  },
});

export default definePostgresHandler({
  name: 'powertools-pg',
  description:
    '@aws-lambda-powertools/idempotency makeIdempotent around the business write, PostgreSQL persistence layer.',
  policy: POWERTOOLS_POLICY,
  ...world,
  async setup(db, fixture) {
    await world.setup(db, fixture);
    await createPgHarnessClock(db);
  },
  advanceClock: advancePgHarnessClock,
  call: (db, principal: Principal, request) =>
    callPowertools(idempotentSetInterval(db), principal, request, (thrown) =>
      // The business write's own integrity failures are PostgreSQL's (class 23), not SQLite's.
      isIntegrityFailure(thrown) ? outcome.error((thrown as Error).message) : undefined,
    ),
});
