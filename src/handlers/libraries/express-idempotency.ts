/**
 * `express-idempotency` 1.0.6 in a real Express 5 app, driven in-process over HTTP by the adapter
 * kit's driver (`sendHttp`, light-my-request). The app is what its README shows: the middleware on
 * the POST route (`app.post(..., idempotency())`), and a route handler that first asks
 * `isHit(req)` ("To prevent transaction processing to occurs, there is a hit function which
 * determine if the idempotency middleware did process the request") and otherwise runs the
 * article's business write. Storage is `SqliteDataAdapter` on the harness-owned connection.
 *
 * The request: `POST /automations/:id/interval` with `{expectedVersion, intervalMinutes}`, so the
 * library's default intent check (url, method, query, body) is the payload check. The client
 * sends its request id as `Idempotency-Key`; an authentication middleware in front (the principal
 * comes in trusted headers, as from a gateway) scopes it to (workspace, user, tool, request id),
 * since the library keys by the header alone. The library sends a replay without marking it, so
 * the app marks it: a response sent while `isHit(req)` carries `Idempotent-Replayed: true`.
 *
 * Scope and validation (`precheck`) run first, at the client's edge, as in the other library
 * plugins: a malformed id cannot form a URL or a key.
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import { IdempotencyService } from 'express-idempotency';
import { type Outcome, outcome } from '../../model/outcome.ts';
import { type Principal, type Receipt, TOOL } from '../../model/world.ts';
import { type Connection, defineHandler } from '../plugin.ts';
import {
  isReceiptDocument,
  libraryWorld,
  precheck,
  Refusal,
  sendHttp,
  setIntervalWrite,
} from './adapter-kit.ts';
import {
  EXPRESS_IDEMPOTENCY_SCHEMA,
  EXPRESS_IDEMPOTENCY_TABLE,
  type ExpressIdempotencyRow,
  SqliteDataAdapter,
} from './express-idempotency-store.ts';

/** The header the app marks a replay with (Stripe's name for it). */
const REPLAYED_HEADER = 'idempotent-replayed';

/** One app per connection, as a server builds its app once at start-up. */
const apps = new WeakMap<Connection, { app: express.Express; store: SqliteDataAdapter }>();

/**
 * The app on `db`: JSON bodies, the gateway's authentication, replay marking, the idempotency
 * middleware and the route, and an error handler that answers JSON with the status the
 * middleware chose. Built once per connection; `store` is its data adapter, for `afterResponse`.
 */
function appFor(db: Connection): { app: express.Express; store: SqliteDataAdapter } {
  const built = apps.get(db);
  if (built) return built;
  const store = new SqliteDataAdapter(db);
  const service = new IdempotencyService({ dataAdapter: store });
  const app = express();
  app.use(express.json());
  app.use(authenticate);
  // Mark replays: the library answers a hit itself, with the stored status and body.
  app.use((req: Request, res: Response, next: NextFunction) => {
    const send = res.send.bind(res);
    res.send = (body?: unknown) => {
      if (service.isHit(req) && res.statusCode < 400) res.setHeader(REPLAYED_HEADER, 'true');
      return send(body);
    };
    next();
  });
  app.post('/automations/:id/interval', service.provideMiddlewareFunction, (req, res) => {
    if (service.isHit(req)) return;
    const principal = res.locals.principal as Pick<Principal, 'workspace' | 'user'>;
    try {
      const receipt = setIntervalWrite(db, principal, {
        requestId: res.locals.requestId as string,
        automationId: Number(req.params.id),
        expectedVersion: req.body.expectedVersion,
        intervalMinutes: req.body.intervalMinutes,
      });
      res.status(200).json(receipt);
    } catch (thrown) {
      if (!(thrown instanceof Refusal)) throw thrown;
      res.status(thrown.reason === 'conflict' ? 409 : 404).json({ reason: thrown.reason });
    }
  });
  // Errors as JSON, keeping a status the middleware set (409 in progress, 417 misuse), else 500.
  app.use((thrown: Error, _req: Request, res: Response, _next: NextFunction) => {
    res.status(res.statusCode >= 400 ? res.statusCode : 500).json({ error: thrown.message });
  });
  const entry = { app, store };
  apps.set(db, entry);
  return entry;
}

/** The trusted principal from the gateway's headers, and the idempotency key scoped to it. */
function authenticate(req: Request, res: Response, next: NextFunction): void {
  const workspace = req.get('x-workspace') ?? '';
  const user = req.get('x-user') ?? '';
  res.locals.principal = { workspace, user };
  const requestId = req.get('idempotency-key');
  if (requestId !== undefined) {
    res.locals.requestId = requestId;
    req.headers['idempotency-key'] = JSON.stringify([workspace, user, TOOL, requestId]);
  }
  next();
}

/** The receipts the stored 2xx responses hold; claims in progress hold none. */
function receipts(db: Connection): Receipt[] {
  const rows = db
    .prepare(`SELECT * FROM ${EXPRESS_IDEMPOTENCY_TABLE} WHERE response IS NOT NULL`)
    .all() as ExpressIdempotencyRow[];
  return rows
    .map((r) => JSON.parse(r.response as string) as { statusCode?: number; body?: unknown })
    .filter((r) => (r.statusCode ?? 0) >= 200 && (r.statusCode ?? 0) < 300)
    .map((r) => (typeof r.body === 'string' ? JSON.parse(r.body) : r.body))
    .filter(isReceiptDocument);
}

/** The result a 2xx body (a receipt document) carries. */
function resultOf(body: unknown): object {
  if (!isReceiptDocument(body)) throw new Error(`not a receipt document: ${JSON.stringify(body)}`);
  return body.result;
}

export default defineHandler({
  name: 'express-idempotency',
  description:
    'express-idempotency 1.0.6 middleware in an Express 5 app driven over in-process HTTP, SQLite data adapter.',
  policy: {
    // README: "The idempotency middleware will call the next function, whenever a idempotency key
    // is detected or not ... there is a hit function which determine if the idempotency
    // middleware did process the request": the stored key is answered before the route runs.
    idempotencyFirst: true,
    // "A previous request is still in progress for this key." with status 409 (CONFLICT), while
    // the claimed key has no response yet.
    inFlightDuplicate: 'conflict',
    // Refusals are not stored: "a request will be considered successful and the response will be
    // cached if the response http status code is between 200 and 299" (else the key is deleted).
    // A claim is a resource with no response: "there will be 2 scenarios: the previous request
    // is still in progress or there is a response available", and the first is answered 409
    // whatever its age. Nothing expires it; only the middleware removes it, when "notified" by
    // `reportError` or a non-2xx response, which a crashed process never sends. So a crash after
    // the claim leaves it for good: finding D, reported, not declared (the library's changelog
    // lists a processing timeout against "permanent 409 locks" in an unpublished version, so it
    // is a bug, not documented semantics). A user who accepts it can declare
    // `claimExpiry: 'never'` (fixtures/declared/express-idempotency-never-expires.ts).
  },
  ...libraryWorld({
    table: EXPRESS_IDEMPOTENCY_TABLE,
    schema: EXPRESS_IDEMPOTENCY_SCHEMA,
    receipts,
  }),
  async call(db: Connection, principal: Principal, request): Promise<Outcome> {
    const checked = precheck(principal, request);
    if ('kind' in checked) return checked;
    const { app, store } = appFor(db);
    return sendHttp(
      app,
      {
        method: 'POST',
        url: `/automations/${checked.automationId}/interval`,
        headers: {
          'x-workspace': principal.workspace,
          'x-user': principal.user,
          'idempotency-key': checked.requestId,
        },
        body: {
          expectedVersion: checked.expectedVersion,
          intervalMinutes: checked.intervalMinutes,
        },
      },
      {
        result: resultOf,
        // "it will be qualified as a misuse of the idempotency key": 417 Expectation Failed.
        statuses: { 417: () => outcome.keyReuse() },
        afterResponse: store.work,
      },
    );
  },
});
