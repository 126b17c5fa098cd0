/**
 * Why a failure matters, as data: the contract rule (or invariant) it broke and a sentence a
 * reader can act on. The explainers produce it; the counterexample renderer turns it into text.
 */

/** Why a failure matters: the contract rule (or invariant) broken, in words. */
export interface Explanation {
  /** The rule number(s) in docs/contract.md, e.g. `7` or `9–11`; undefined for invariants and harness rules. */
  readonly rule?: string;
  /** One or two sentences a reader can act on. */
  readonly text: string;
}
