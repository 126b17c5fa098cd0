/**
 * Findings, as plain data: what an all-findings check (`checkHandler({allFindings: true})`,
 * `receiptcheck run --all-findings`) reports instead of one counterexample. Every failing run is
 * shrunk, and runs whose shrunk cases share a signature (the rule broken and the shape of the
 * case, `report/finding-signature.ts`) are one finding, reported once with its count. A
 * known-findings file lists signatures a user has accepted, so CI fails only on new ones. (A
 * finding itself, which carries its counterexample, is in `results.ts`.)
 */

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

/** One accepted finding in a known-findings file. */
export interface KnownFinding extends FindingSignature {
  /** Free text: why it is accepted (a library's documented limitation, an issue link). */
  readonly note?: string;
}

/** A known-findings file, parsed. */
export interface KnownFindings {
  readonly findings: readonly KnownFinding[];
}
