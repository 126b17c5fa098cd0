/**
 * The moves that change the world rather than call the tool (a scope change, a move, a delete, a
 * re-create, the receipt store failing or coming back, the clock), made concrete against where
 * the model stands. Pure; `resolve.ts` hands every other move to its resolver.
 */
import type { Event } from '../model/events.ts';
import type { Row } from '../model/operation.ts';
import { expiryLifetime } from '../model/policy.ts';
import type { ModelState } from '../model/state.ts';
import { clockStep } from './clock-step.ts';
import type { Move } from './moves.ts';

/** A move that makes a world event. */
export type WorldMove = Extract<
  Move,
  { kind: 'scope' | 'move' | 'delete' | 'recreate' | 'store' | 'clock' }
>;

/** What a world move is resolved against. */
export interface WorldMoveBasis {
  /** The fixture's target rows: a re-create brings back one of those the model has lost. */
  readonly rows: readonly Row[];
  readonly state: ModelState;
  /** The target row id a move's `target` names. */
  readonly anyTarget: (target: number) => number;
  /** The workspace a move's `workspace` index names. */
  readonly workspace: (index: number) => string;
}

/** The event `move` makes; undefined when it cannot apply (nothing deleted, no expiry). */
export function worldMoveEvent(move: WorldMove, b: WorldMoveBasis): Event | undefined {
  switch (move.kind) {
    case 'scope':
      return { kind: move.granted ? 'restore' : 'revoke', client: move.client };
    case 'move':
      return {
        kind: 'move',
        resourceId: b.anyTarget(move.target),
        workspace: b.workspace(move.workspace),
      };
    case 'delete':
      return { kind: 'delete', resourceId: b.anyTarget(move.target) };
    case 'recreate': {
      const deleted = b.rows.filter((a) => !b.state.rows.has(a.id));
      const row = deleted[move.target % Math.max(1, deleted.length)];
      return (
        row && { kind: 'recreate', resourceId: row.id, workspace: b.workspace(move.workspace) }
      );
    }
    case 'store':
      return { kind: move.failing ? 'storeFail' : 'storeRestore' };
    case 'clock': {
      const lifetime = expiryLifetime(b.state.policy);
      return lifetime === undefined
        ? undefined
        : { kind: 'clockAdvance', ms: clockStep(lifetime, move.long) };
    }
  }
}
