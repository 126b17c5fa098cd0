/**
 * Findings, as plain data: what an all-findings check (`checkHandler({allFindings: true})`,
 * `receiptcheck run --all-findings`) reports instead of one counterexample. Every failing run is
 * shrunk, and runs whose shrunk cases share a signature (the rule broken and the shape of the
 * case, `report/finding-signature.ts`) are one finding, reported once with its count. A
 * known-findings file lists signatures a user has accepted, so CI fails only on new ones.
 */
import type { Counterexample } from './results.ts';

/** The format tag a known-findings file carries. */
export const KNOWN_FINDINGS_FORMAT = 'receiptcheck-known-findings/1';

/**
 * What makes two failures one finding: the rule broken and the shape of the shrunk case, both
 * seed-independent text (see `findingSignature` for what each holds and why).
 */
export interface FindingSignature {
  /** The contract rule (`rule 7`), invariant (`invariant: …`) or harness rule (`hang`) the first failure broke. */
  readonly rule: string;
  /** The shrunk case with ids, request ids and values abstracted away, e.g. `group(new | reuse ✗ refused(conflict)→keyReuse)`. */
  readonly shape: string;
}

/** One distinct finding of an all-findings check. */
export interface Finding extends FindingSignature {
  /** A short stable id of the signature (hex), the same on every seed and machine. */
  readonly id: string;
  /** Failing runs whose shrunk case has this signature. */
  readonly count: number;
  /** Listed in the known-findings file given; a known finding does not fail the check. */
  readonly known: boolean;
  /** The note the known-findings file gives it, if any. */
  readonly note?: string;
  /** The first failing run of this signature, shrunk: what the report shows and the case file holds. */
  readonly counterexample: Counterexample;
}

/** One accepted finding in a known-findings file. */
export interface KnownFinding extends FindingSignature {
  /** Free text: why it is accepted (a library's documented limitation, an issue link). */
  readonly note?: string;
}

/** A known-findings file, parsed. */
export interface KnownFindings {
  readonly findings: readonly KnownFinding[];
}
