/**
 * `@node-idempotency/core` around the article's business write, used as its README describes:
 * `onRequest` before the business logic (a cached response comes back, a new key is marked in
 * progress with a fingerprint of the body), `onResponse` after it with the body or the error, so
 * "the response can be stored and the request can be marked as complete". Storage is
 * `SqliteStorageAdapter` on the harness-owned connection.
 *
 * The key is the library's: method, path and the `idempotency-key` header. The principal's
 * workspace and user go into the path and the request id into the header, so the key is
 * (workspace, user, tool, request id); the body holds the payload fields, so the library's
 * fingerprint is the payload check. `enforceIdempotency` makes the header required. Scope and
 * validation (`precheck`) run first, at the request edge, as they would in front of the library.
 */
import {
  Idempotency,
  IdempotencyError,
  IdempotencyErrorCodes,
  type IdempotencyParams,
  type IdempotencyResponse,
  RequestStatusEnum,
  type StoragePayload,
} from '@node-idempotency/core';
import { type Outcome, outcome } from '../../model/outcome.ts';
import { type Principal, type Receipt, TOOL } from '../../model/world.ts';
import { type Connection, defineHandler, type HandlerPlugin } from '../plugin.ts';
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
  isLive,
  NODE_IDEMPOTENCY_SCHEMA,
  NODE_IDEMPOTENCY_TABLE,
  type NodeIdempotencyRow,
  SqliteStorageAdapter,
} from './node-idempotency-storage.ts';

/**
 * The error body stored for a refusal, as an HTTP API would send it; or, when the plugin stores
 * errors (`nodeIdempotencyCall`), for a failed write: a 500 with its message.
 */
type ErrorBody = { readonly reason: Refusal['reason'] } | { readonly message: string };

type Response = IdempotencyResponse<Receipt, ErrorBody>;

const instances = new WeakMap<Connection, Idempotency>();

/** One `Idempotency` per connection, as an application builds one at start-up. */
function idempotencyFor(db: Connection): Idempotency {
  let idempotency = instances.get(db);
  if (!idempotency) {
    const storage = new SqliteStorageAdapter(db, undefined, HARNESS_CLOCK_MS_SQL);
    idempotency = new Idempotency(storage, { enforceIdempotency: true });
    instances.set(db, idempotency);
  }
  return idempotency;
}

/** The request the library sees: the key in path and header, the payload as the body. */
function requestOf(principal: Principal, r: ValidRequest): IdempotencyParams {
  const path = `/workspaces/${encodeURIComponent(principal.workspace)}/users/${encodeURIComponent(principal.user)}/${TOOL}`;
  return {
    method: 'POST',
    path,
    headers: { 'idempotency-key': r.requestId },
    body: {
      automationId: r.automationId,
      expectedVersion: r.expectedVersion,
      intervalMinutes: r.intervalMinutes,
    },
  };
}

/** What the library answered for a key it had seen, as an outcome. */
function replayOf(cached: Response): Outcome {
  if (cached.body) return outcome.replayed(cached.body.result);
  if (cached.error && 'reason' in cached.error) return outcome.refused(cached.error.reason);
  if (cached.error) return outcome.error(cached.error.message);
  throw new Error(`cached response has neither body nor error: ${JSON.stringify(cached)}`);
}

/** Maps what `onRequest`/`onResponse` threw; rethrows anything it does not know. */
function outcomeOfThrown(thrown: unknown): Outcome {
  if (thrown instanceof IdempotencyError) {
    // The library's own HTTP mapping: 422 for a fingerprint mismatch, 409 for in progress.
    if (thrown.code === IdempotencyErrorCodes.IDEMPOTENCY_FINGERPRINT_MISSMATCH)
      return outcome.keyReuse();
    if (thrown.code === IdempotencyErrorCodes.REQUEST_IN_PROGRESS)
      return outcome.refused('conflict');
  }
  if (isWriteFailure(thrown)) return outcome.error((thrown as Error).message);
  throw thrown;
}

/** The receipts the live COMPLETE entries with a body hold; refusals and in-progress entries are not receipts. */
function receipts(db: Connection): Receipt[] {
  // The harness clock is read in the same statement as the rows, so reading adds no statement.
  const rows = db
    .prepare(`SELECT *, ${HARNESS_CLOCK_MS_SQL} AS now_ms FROM ${NODE_IDEMPOTENCY_TABLE}`)
    .all() as (NodeIdempotencyRow & { now_ms: number })[];
  return rows
    .filter((r) => isLive(r, r.now_ms))
    .map((r) => JSON.parse(r.value) as StoragePayload<Receipt, ErrorBody>)
    .filter((p) => p.status === RequestStatusEnum.COMPLETE)
    .map((p) => p.response?.body)
    .filter(isReceiptDocument);
}

/** How long the core keeps an entry: its default `cacheTTLMS`, 24 h. */
export const ENTRY_LIFETIME_MS = 86_400_000;

const world = libraryWorld({
  table: NODE_IDEMPOTENCY_TABLE,
  schema: NODE_IDEMPOTENCY_SCHEMA,
  receipts,
});

export default defineHandler({
  name: 'node-idempotency',
  description:
    '@node-idempotency/core onRequest/onResponse around the business write, SQLite storage adapter.',
  policy: {
    // onRequest "gives back the response if the key is already seen" before the business logic.
    idempotencyFirst: true,
    // onResponse: "it cached the response/error and updates status to complete. subsequent
    // requests can use cached response." The 1.0.5 storage interface has no delete.
    storesRefusals: true,
    // Default inProgressStrategy {wait: false}: "A request is outstanding for this
    // Idempotency-Key" (REQUEST_IN_PROGRESS, which its plugins send as 409).
    inFlightDuplicate: 'conflict',
    // The core passes `cacheTTLMS`, default `IDEMPOTENCY_CACHE_TTL_MS = 1000 * 60 * 60 * 24`, as
    // the time to live of every entry it writes: the completed response (F3, declared) ...
    receiptExpiry: ENTRY_LIFETIME_MS,
    // ... and the IN_PROGRESS claim `setIfNotExists` writes first, which a crash leaves behind.
    claimExpiry: ENTRY_LIFETIME_MS,
  },
  ...world,
  setup(db, fixture) {
    world.setup(db, fixture);
    createHarnessClock(db);
  },
  // Entries' expiry times are kept on the harness clock (`SqliteStorageAdapter`).
  advanceClock: advanceHarnessClock,
  call: nodeIdempotencyCall({ storeErrors: false }),
});

/** How the plugin's call uses the library. */
export interface NodeIdempotencyUse {
  /**
   * Also hand `onResponse` a failed business write (a 500 with its message), so the library
   * stores it and answers the key with it from then on: what the interceptor of
   * `@node-idempotency/nestjs` does with every error unless `skipErrorsCache` is set. A plugin
   * using it declares policy `storesErrors`. Off (this plugin), a failed write is not recorded:
   * the claim is left in progress, as a crash leaves it.
   */
  readonly storeErrors: boolean;
}

/**
 * The plugin's `call`: scope and validation at the edge, then `onRequest` (a stored answer, or
 * the key claimed), the business write, and `onResponse` with its receipt or refusal (and, with
 * `storeErrors`, its failure).
 */
export function nodeIdempotencyCall(use: NodeIdempotencyUse): HandlerPlugin['call'] {
  return async (db, principal, request) => {
    const checked = precheck(principal, request);
    if ('kind' in checked) return checked;
    const idempotency = idempotencyFor(db);
    const req = requestOf(principal, checked);
    try {
      const cached = await idempotency.onRequest<Receipt, ErrorBody>(req);
      if (cached) return replayOf(cached);
      let response: Response;
      let answer: Outcome;
      try {
        const receipt = setIntervalWrite(db, principal, checked);
        response = { body: receipt, additional: { statusCode: 200 } };
        answer = outcome.fresh(receipt.result);
      } catch (thrown) {
        if (thrown instanceof Refusal) {
          const statusCode = thrown.reason === 'conflict' ? 409 : 404;
          response = { error: { reason: thrown.reason }, additional: { statusCode } };
          answer = outcome.refused(thrown.reason);
        } else if (use.storeErrors && isWriteFailure(thrown)) {
          const { message } = thrown as Error;
          response = { error: { message }, additional: { statusCode: 500 } };
          answer = outcome.error(message);
        } else throw thrown;
      }
      await idempotency.onResponse(req, response);
      return answer;
    } catch (thrown) {
      return outcomeOfThrown(thrown);
    }
  };
}
