/**
 * What a run's calls came to against the operation's own rules, as counts: calls next to the
 * precondition's edge on each side, the model's answers by kind and refusals by reason, and
 * concurrent groups with how many the model says conflict. So a summary shows that the edge was
 * met and the races were over something. Names and shapes only; counting lives in `report/`.
 */

/** Calls whose value in one field sat next to the precondition's edge, on each side of it. */
export interface EdgeCount {
  /** The precondition held at the value and refuses at its neighbour. */
  held: number;
  /** The precondition refused at the value and holds at its neighbour. */
  refused: number;
}

/** Coverage of one operation's rules over the runs counted. */
export interface OperationCoverage {
  /** The operation's name. */
  readonly operation: string;
  /** Whether the operation has a precondition at all (else `edges` stays empty). */
  readonly precondition: boolean;
  /** By ordered field (integers, ids but the target): calls at the edge. */
  readonly edges: Record<string, EdgeCount>;
  /**
   * The model's answers by kind: `fresh`, `replayed`, `refused`, `keyReuse`, `invalid`, `error`,
   * `notSent` (a lost request); counted for every call.
   */
  readonly outcomes: Record<string, number>;
  /** Refusals by reason (`forbidden`, `unavailable`, `conflict`, the precondition's own). */
  readonly refusals: Record<string, number>;
  /** Concurrent groups, and those whose members conflict (`generate/group-conflicts.ts`). */
  readonly groups: { total: number; conflicting: number };
}

/** One mode's part of a check that explored several. */
export interface ModeShare {
  readonly mode: string;
  readonly runs: number;
  readonly runsPlanned: number;
}
