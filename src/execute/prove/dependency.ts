/**
 * The dependency relation the prover's reduction rests on, per engine: which grants commute with
 * which. Soundness first: two grants are independent only when swapping them cannot change what
 * any lane sees or what the database ends as, and when unsure they are dependent. Pure.
 *
 * SQLite: one write lock serialises writers, and a transaction's statements, its BEGIN and its
 * COMMIT all touch that lock, so every grant but a plain read is dependent on every other. Two
 * plain reads (a `SELECT` that is not transaction control, from lanes not retrying a lock) of
 * different lanes commute: a read takes at most a shared lock, which no other read conflicts
 * with, and changes nothing another read returns. The handler's own code between statements is
 * assumed to touch nothing another lane reads (a `replayable` handler declares so; lanes on
 * worker threads have memories of their own).
 *
 * PostgreSQL: a plain `SELECT` may call a function that locks or writes (an advisory lock,
 * `nextval`), and row locks depend on what each statement touched, which the grant does not say:
 * every grant is dependent, so the search is exhaustive within the bound there.
 */
import type { Engine } from '../../handlers/engine.ts';
import type { DecisionCandidate } from '../../types/scheduled-trace.ts';
import { isTransactionControl } from '../schedule/statement-kind.ts';

/** A grant as the reduction sees it: its step, its lane, and whether it commutes with other lanes' reads. */
export interface Transition {
  readonly step: number;
  readonly lane: number;
  /** Independent of every other lane's transition that is also `read`. */
  readonly read: boolean;
}

const PLAIN_SELECT = /^\s*SELECT\b/i;

/** Whether granting `c` is a plain read on `engine` (see the file comment); false when unsure. */
export function isPlainRead(engine: Engine, c: DecisionCandidate): boolean {
  if (engine !== 'sqlite') return false;
  if (c.blocked || c.write || c.point !== 'statement' || c.sql === undefined) return false;
  return PLAIN_SELECT.test(c.sql) && !isTransactionControl(c.sql);
}

/** Whether two transitions commute: both plain reads, of different lanes, in the same step. */
export function independent(a: Transition, b: Transition): boolean {
  return a.read && b.read && a.lane !== b.lane && a.step === b.step;
}
