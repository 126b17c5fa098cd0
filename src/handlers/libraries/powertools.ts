/**
 * `@aws-lambda-powertools/idempotency` around the article's business write, configured as its
 * documentation recommends for a function that is not the Lambda handler: `makeIdempotent` on the
 * business function, `eventKeyJmesPath` selecting the key (workspace, user, tool, request id),
 * `payloadValidationJmesPath` over the payload fields, `throwOnNoIdempotencyKey`, and a custom
 * persistence layer (`SqlitePersistenceLayer`) on the harness-owned connection.
 *
 * Scope and validation (`precheck`) run first, at the request edge, as they would in front of
 * any idempotency layer: a malformed request id cannot form a key. Access and version are the
 * business function's job, inside the library's wrapper.
 */
import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  IdempotencyPersistenceLayerError,
  IdempotencyValidationError,
  makeIdempotent,
} from '@aws-lambda-powertools/idempotency';
import type { CallRequest } from '../../model/events.ts';
import type { Outcome } from '../../model/outcome.ts';
import { outcome } from '../../model/outcome.ts';
import type { PolicyDeclaration } from '../../model/policy.ts';
import { type Principal, type Receipt, TOOL } from '../../model/world.ts';
import { type Connection, defineHandler } from '../plugin.ts';
import {
  advanceHarnessClock,
  createHarnessClock,
  HARNESS_CLOCK_MS_SQL,
} from '../sqlite/harness-clock.ts';
import {
  isReceiptDocument,
  isWriteFailure,
  libraryWorld,
  precheck,
  Refusal,
  setIntervalWrite,
  type ValidRequest,
} from './adapter-kit.ts';
import {
  POWERTOOLS_SCHEMA,
  POWERTOOLS_TABLE,
  type PowertoolsRow,
  replaceable,
  SqlitePersistenceLayer,
} from './powertools-persistence.ts';

/**
 * The time budget the library is told a call has left, in ms: the harness's default per-call
 * timeout. Registering it is what the docs ask of wrapped functions outside the handler ("you must
 * use `registerLambdaContext` ... to benefit from this protection"); an in-progress record then
 * expires after it, so a crashed call does not hold its key for the whole hour.
 */
export const CALL_BUDGET_MS = 5_000;

/** The event the wrapped function receives: the key fields and the payload fields. */
export interface SetIntervalEvent extends ValidRequest {
  readonly workspace: string;
  readonly user: string;
  readonly tool: string;
}

/** What the wrapped function returns and the library stores; `replayed` is set by the response hook. */
export interface Answer {
  readonly receipt: Receipt;
  readonly replayed: boolean;
}

const wrapped = new WeakMap<Connection, (event: SetIntervalEvent) => Promise<Answer>>();

/**
 * The library's configuration, as its documentation recommends for a function that is not the
 * Lambda handler; shared with the PostgreSQL plugin (`postgres/powertools-pg.ts`).
 */
export function powertoolsConfig(): IdempotencyConfig {
  const config = new IdempotencyConfig({
    eventKeyJmesPath: '[workspace, user, tool, requestId]',
    payloadValidationJmesPath: '[automationId, expectedVersion, intervalMinutes]',
    throwOnNoIdempotencyKey: true,
    // The documented hook for "an existing idempotent response is found": mark it as a replay.
    responseHook: (response) => ({ ...(response as object), replayed: true }),
  });
  config.registerLambdaContext({ getRemainingTimeInMillis: () => CALL_BUDGET_MS });
  return config;
}

/** The idempotent business function for `db`, built once per connection like a module-scope handler. */
function idempotentSetInterval(db: Connection): (event: SetIntervalEvent) => Promise<Answer> {
  let fn = wrapped.get(db);
  if (fn) return fn;
  const config = powertoolsConfig();
  const business = async (event: SetIntervalEvent): Promise<Answer> => ({
    receipt: setIntervalWrite(db, event, event),
    replayed: false,
  });
  const persistenceStore = new SqlitePersistenceLayer(db, HARNESS_CLOCK_MS_SQL);
  fn = makeIdempotent(business, { persistenceStore, config });
  wrapped.set(db, fn);
  return fn;
}

/** Maps what the library threw onto the contract's outcomes; rethrows anything it does not know. */
function outcomeOfThrown(thrown: unknown): Outcome {
  if (thrown instanceof Refusal) return outcome.refused(thrown.reason);
  if (thrown instanceof IdempotencyValidationError) return outcome.keyReuse();
  // "If you receive IdempotencyAlreadyInProgressError, you can safely retry": HTTP's 409.
  if (thrown instanceof IdempotencyAlreadyInProgressError) return outcome.refused('conflict');
  // The business write failed (a failing store): the library has deleted its claim.
  if (isWriteFailure(thrown)) return outcome.error((thrown as Error).message);
  if (thrown instanceof IdempotencyPersistenceLayerError) {
    const cause = thrown.cause instanceof Error ? `: ${thrown.cause.message}` : '';
    return outcome.error(`${thrown.message}${cause}`);
  }
  throw thrown;
}

/**
 * One call through the wrapped business function `idempotent`, as both engines' plugins make it:
 * `precheck` at the request edge, the key and payload fields as the event, and the library's
 * answer or what it threw as the contract's outcome. `thrownOutcome` names the engine's own
 * write failures (PostgreSQL's integrity errors) before the library's mapping.
 */
export async function callPowertools(
  idempotent: (event: SetIntervalEvent) => Promise<Answer>,
  principal: Principal,
  request: CallRequest,
  thrownOutcome: (thrown: unknown) => Outcome | undefined = () => undefined,
): Promise<Outcome> {
  const checked = precheck(principal, request);
  if ('kind' in checked) return checked;
  const event: SetIntervalEvent = {
    workspace: principal.workspace,
    user: principal.user,
    tool: TOOL,
    requestId: checked.requestId,
    automationId: checked.automationId,
    expectedVersion: checked.expectedVersion,
    intervalMinutes: checked.intervalMinutes,
  };
  try {
    const answer = await idempotent(event);
    return answer.replayed
      ? outcome.replayed(answer.receipt.result)
      : outcome.fresh(answer.receipt.result);
  } catch (thrown) {
    return thrownOutcome(thrown) ?? outcomeOfThrown(thrown);
  }
}

/** The receipts the live COMPLETED records hold; in-progress records hold no result and are left out. */
function receipts(db: Connection): Receipt[] {
  // The clock is read in the same statement as the rows, so reading adds no statement.
  return receiptsOfRows(
    db
      .prepare(`SELECT *, ${HARNESS_CLOCK_MS_SQL} AS clock_ms FROM ${POWERTOOLS_TABLE}`)
      .all() as (PowertoolsRow & { clock_ms: number })[],
  );
}

/** The receipts in the records `rows` (each with the clock's offset when read) that are live and completed. */
export function receiptsOfRows(rows: readonly (PowertoolsRow & { clock_ms: number })[]): Receipt[] {
  return rows
    .filter((r) => r.status === 'COMPLETED' && !replaceable(r, r.clock_ms) && r.data !== null)
    .map((r) => (JSON.parse(r.data as string) as Answer).receipt)
    .filter(isReceiptDocument);
}

/** How long a completed record lasts: the library's default `expiresAfterSeconds`, 3600 s. */
export const RECORD_LIFETIME_MS = 3_600_000;

/** What the library's documentation says it does where it departs from the contract. */
export const POWERTOOLS_POLICY: PolicyDeclaration = {
  // "a second request containing the exact same payload ... will now return the same response"
  // without calling the function: replays come from the store before the access check.
  idempotencyFirst: true,
  // "unhandled exceptions ... will cause the record in the persistence layer to be deleted".
  storesRefusals: false,
  // "This utility will throw an IdempotencyAlreadyInProgressError error if you receive multiple
  // invocations with the same payload while the first invocation hasn't completed yet".
  inFlightDuplicate: 'conflict',
  // `expiresAfterSeconds`: "The number of seconds the idempotency key is valid", "@default
  // 3600 (1 hour)": a retry after the hour runs the function again (finding F3, declared).
  receiptExpiry: RECORD_LIFETIME_MS,
  // `saveInProgress` sets the in-progress record's `inProgressExpiryTimestamp`, "The expiry
  // timestamp of the in progress record in milliseconds UTC", to now plus "the remaining time
  // left in the lambda execution context" (`CALL_BUDGET_MS`): a crash's claim refuses its key
  // as in progress until then, and a put may replace it after (F2's lock, declared).
  claimExpiry: CALL_BUDGET_MS,
};

const world = libraryWorld({ table: POWERTOOLS_TABLE, schema: POWERTOOLS_SCHEMA, receipts });

export default defineHandler({
  name: 'powertools',
  description:
    '@aws-lambda-powertools/idempotency makeIdempotent around the business write, SQLite persistence layer.',
  policy: POWERTOOLS_POLICY,
  ...world,
  setup(db, fixture) {
    world.setup(db, fixture);
    createHarnessClock(db);
  },
  // The records' times are kept on the harness clock (`SqlitePersistenceLayer`), not the wall's.
  advanceClock: advanceHarnessClock,
  call: (db: Connection, principal: Principal, request) =>
    callPowertools(idempotentSetInterval(db), principal, request),
});
