/**
 * What every step of a scheduled service run shares: the service's protocol client, the world's
 * functions (harness SQL), the proxy's gate, the lock watch, the trace being written, the current
 * principals and the limits. Also how a lane sends its call: the reply becomes the lane's report,
 * unless the lane was stopped first (its request is then abandoned, the reply dropped).
 */
import type pg from 'pg';
import type { PostgresHandlerPlugin } from '../../../handlers/postgres/plugin.ts';
import type { CallEvent } from '../../../model/events.ts';
import type { Observed } from '../../../model/outcome.ts';
import type { Principal } from '../../../model/world.ts';
import type { PgStepContext } from '../../postgres/scheduled/step-context.ts';
import { type AnswerRule, sendMapped } from '../answer-mapping.ts';
import type { ProtocolClient } from '../protocol.ts';
import type { StatementGate } from './statement-gate.ts';

/**
 * What every step of one scheduled service run shares: what PostgreSQL plugins' runs share of
 * the trace, the principals, the limits and the lock watch, and the service's own.
 */
export type ServiceStepContext = Pick<
  PgStepContext,
  | 'entries'
  | 'principals'
  | 'operation'
  | 'callTimeoutMs'
  | 'grantsMax'
  | 'decisions'
  | 'watch'
  | 'serverOrdered'
> & {
  /** The world's functions on the service's database: setup, world events, snapshot. */
  readonly world: PostgresHandlerPlugin;
  readonly client: ProtocolClient;
  /** The description's answer rules (then the defaults). */
  readonly answers: readonly AnswerRule[];
  readonly gate: StatementGate;
  /** A connection through the proxy that runs lane `lane`'s world events; kept for the run. */
  worldConnection(lane: number): Promise<pg.Client>;
  /** The requests in flight, by lane, to abandon on a crash or a hang. */
  readonly requests: Map<number, AbortController>;
  /** The service did not answer (it died, or broke the connection): the next run starts it again. */
  markBroken(): void;
};

/**
 * Sends `event` as `principal` and resolves with what its client hears: the reply mapped by the
 * answer rules, or `unexpected` when none came or no rule maps it. Never rejects.
 */
export async function sendCall(
  ctx: ServiceStepContext,
  principal: Principal,
  event: CallEvent,
  signal?: AbortSignal,
): Promise<Observed> {
  const { requestId, ...fields } = event.request;
  // A request the lane's crash abandoned is not the service's fault.
  const broken = () => (signal?.aborted ? undefined : ctx.markBroken());
  return sendMapped(ctx.client, { requestId, principal, fields }, ctx.answers, broken, signal);
}
