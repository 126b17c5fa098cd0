/**
 * The happens-before class of a run's prefix, as a string key: two prefixes with equal keys
 * differ only in the order of independent transitions (`dependency.ts`), so they leave the
 * database and every lane in the same state. This is the state the prover caches, as CHESS
 * caches the happens-before graph of a prefix when it cannot read the program's state. Pure.
 *
 * Only reads of different lanes commute, so every other transition is a barrier: a class is the
 * sequence of barriers, with, between two of them, how many reads each lane made (each lane's
 * reads keep their own order). Steps are barriers too.
 */
import type { Transition } from './dependency.ts';

/**
 * The class key after each prefix of `transitions`: `keys[i]` is the key of the first `i`
 * transitions (so `keys[0]` is the empty prefix's), in one pass.
 */
export function prefixClassKeys(transitions: readonly Transition[]): string[] {
  const keys = [''];
  let done = '';
  let block = new Map<number, number>();
  let blockStep = -1;
  const flush = () => {
    if (block.size > 0) done += blockText(block, blockStep);
    block = new Map();
  };
  for (const t of transitions) {
    if (t.read && (block.size === 0 || t.step === blockStep)) {
      blockStep = t.step;
      block.set(t.lane, (block.get(t.lane) ?? 0) + 1);
    } else {
      flush();
      if (t.read) {
        blockStep = t.step;
        block.set(t.lane, 1);
      } else done += `w${t.step}.${t.lane};`;
    }
    keys.push(block.size > 0 ? done + blockText(block, blockStep) : done);
  }
  return keys;
}

/** A block of reads: per lane, in lane order, how many. */
function blockText(block: ReadonlyMap<number, number>, step: number): string {
  const lanes = [...block.entries()].sort((a, b) => a[0] - b[0]);
  return `r${step}(${lanes.map(([lane, n]) => `${lane}x${n}`).join(',')});`;
}
