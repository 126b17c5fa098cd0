/**
 * The HTTP driver of the adapter kit: sends one call to an in-process HTTP app (an Express or
 * plain `node:http` request listener) with `light-my-request`, the injector Fastify uses, and maps
 * the reply onto an outcome: 2xx is `ok`, replayed when the replay header says `true`; other
 * statuses through a table (403 forbidden, 404 unavailable, 409 conflict, 422 key reuse, 5xx
 * error by default). A status the table does not know throws, so the harness reports it as an
 * unexpected error.
 *
 * When a call ends: HTTP idempotency libraries often store the response *after* sending it
 * (a hook on `res.send`, a fire-and-forget promise). The checker must not take a snapshot or
 * start the next step while that work runs, or it would judge a database the library has not
 * finished writing. So a call ends when the response has finished, then one macrotask turn has
 * passed (every promise chain the response started, with synchronous SQLite writes, has run),
 * then the plugin's `afterResponse` work (the store writes an adapter tracked with
 * `PendingWork`) has settled.
 */
import type { RequestListener } from 'node:http';
import type { Response as InjectResponse } from 'light-my-request';
import { type Outcome, outcome } from '../../model/outcome.ts';
import { importOptional } from '../optional-packages.ts';

/** One request to the app: method, path, headers and a JSON body. */
export interface HttpRequest {
  readonly method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent as JSON. */
  readonly body?: object;
}

/** What the app answered: status, headers (lower-case names) and the body, parsed when JSON. */
export interface HttpReply {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, string | string[] | number | undefined>>;
  readonly body: unknown;
}

/** Maps a reply with a given status onto an outcome. */
export type StatusMapping = (reply: HttpReply) => Outcome;

/** How replies become outcomes. */
export interface ReplyMapping {
  /** The result a 2xx body carries (the fresh or replayed call's result). */
  readonly result: (body: unknown) => object;
  /** The response header whose value `true` marks a replay. Default `idempotent-replayed` (Stripe's). */
  readonly replayHeader?: string;
  /** Outcomes of non-2xx statuses, over the defaults (`DEFAULT_STATUSES`). */
  readonly statuses?: Readonly<Record<number, StatusMapping>>;
}

/** Options of `sendHttp`: the reply mapping and the work that outlives the response. */
export interface HttpDriverOptions extends ReplyMapping {
  /**
   * Work the app or its library does after the response has been sent (storing it, releasing a
   * claim); the call ends only when none is left. A `PendingWork` the store adapter tracks its
   * operations in fits.
   */
  readonly afterResponse?: AfterResponseWork;
}

/** Work still running after a response: whether none is left, and a promise for when it settles. */
export interface AfterResponseWork {
  readonly idle: boolean;
  settled(): Promise<void>;
}

/** The error message a 5xx body carries (`{error}` or `{message}`), or the status line. */
function messageOf(reply: HttpReply): string {
  const body = reply.body as { error?: unknown; message?: unknown } | null;
  if (typeof body === 'object' && body !== null) {
    if (typeof body.error === 'string') return body.error;
    if (typeof body.message === 'string') return body.message;
  }
  return typeof reply.body === 'string' && reply.body !== ''
    ? reply.body
    : `HTTP ${reply.statusCode}`;
}

/** The default table: the statuses REST APIs use for the contract's refusals. */
export const DEFAULT_STATUSES: Readonly<Record<number, StatusMapping>> = {
  403: () => outcome.refused('forbidden'),
  404: () => outcome.refused('unavailable'),
  409: () => outcome.refused('conflict'),
  422: () => outcome.keyReuse(),
  500: (reply) => outcome.error(messageOf(reply)),
  503: (reply) => outcome.error(messageOf(reply)),
};

/** The outcome a reply stands for (pure); throws for a status the mapping does not know. */
export function outcomeOfReply(reply: HttpReply, mapping: ReplyMapping): Outcome {
  if (reply.statusCode >= 200 && reply.statusCode < 300) {
    const header = reply.headers[mapping.replayHeader ?? 'idempotent-replayed'];
    const result = mapping.result(reply.body);
    return String(header) === 'true' ? outcome.replayed(result) : outcome.fresh(result);
  }
  const map = mapping.statuses?.[reply.statusCode] ?? DEFAULT_STATUSES[reply.statusCode];
  if (map) return map(reply);
  throw new Error(`unexpected HTTP ${reply.statusCode}: ${JSON.stringify(reply.body)}`);
}

/** A bound on rounds of after-response work, so a library that never settles cannot hang a call. */
const SETTLE_ROUNDS_MAX = 100;

/**
 * Sends `request` to `app` in-process and returns its outcome once the call has ended (see the
 * file comment): the response finished, one macrotask turn, and `afterResponse` settled.
 */
export async function sendHttp(
  app: RequestListener,
  request: HttpRequest,
  options: HttpDriverOptions,
): Promise<Outcome> {
  // Loaded on first use: light-my-request is an optional dependency (optional-packages.ts).
  const { inject } = await importOptional('light-my-request', () => import('light-my-request'));
  const response = await inject(app, {
    method: request.method,
    url: request.url,
    headers: {
      ...request.headers,
      ...(request.body ? { 'content-type': 'application/json' } : {}),
    },
    ...(request.body ? { payload: JSON.stringify(request.body) } : {}),
  });
  await afterResponseSettled(options.afterResponse);
  return outcomeOfReply(replyOf(response), options);
}

/**
 * Waits a macrotask turn, then for the after-response work, until a turn ends with none left:
 * work settling may start more (a failed store write that then deletes the key). Bounded.
 */
async function afterResponseSettled(work: AfterResponseWork | undefined): Promise<void> {
  for (let round = 0; round < SETTLE_ROUNDS_MAX; round++) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (!work || work.idle) return;
    await work.settled();
  }
  throw new Error(`the app's after-response work did not settle in ${SETTLE_ROUNDS_MAX} rounds`);
}

function replyOf(response: InjectResponse): HttpReply {
  let body: unknown = response.payload;
  if (String(response.headers['content-type'] ?? '').includes('json') && response.payload !== '') {
    body = response.json();
  }
  return { statusCode: response.statusCode, headers: response.headers, body };
}

/**
 * Promises an adapter started and the call must wait for (see the file comment): wrap each
 * store operation in `track`, pass the `PendingWork` as `afterResponse`.
 */
export class PendingWork implements AfterResponseWork {
  private readonly pending = new Set<Promise<unknown>>();

  /** Whether no tracked operation is running. */
  get idle(): boolean {
    return this.pending.size === 0;
  }

  /** Runs `operation`, keeping its promise until it settles. */
  track<T>(operation: () => Promise<T>): Promise<T> {
    const promise = operation();
    this.pending.add(promise);
    const forget = () => this.pending.delete(promise);
    promise.then(forget, forget);
    return promise;
  }

  /** Resolves when every tracked operation has settled (including those started meanwhile). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}
