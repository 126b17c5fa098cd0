/**
 * `prove`'s summary for people: the cases, the schedules run and pruned, the bound, and the
 * verdict in words, which says exactly what was proved and no more. Pure.
 */
import type { ProveResult } from '../types/prove.ts';

const count = (n: number) => n.toLocaleString('en-US');

/** The claim a held proof makes, in one sentence (also the start of a failed or incomplete one). */
export function proveClaim(r: ProveResult): string {
  const cases = `${count(r.cases)} case${r.cases === 1 ? '' : 's'}`;
  const of =
    r.source === 'generated'
      ? `${cases} of ≤ ${r.stepsMax} steps and ≤ ${r.lanesMax} lanes`
      : cases;
  const faults = r.injections ? ', each crash and store fault at every point too,' : '';
  return `every schedule${faults} with ≤ ${r.preemptions} preemption${r.preemptions === 1 ? '' : 's'} of ${of} (${count(r.runs)} schedules run, ${count(r.pruned)} pruned)`;
}

/** The verdict line. */
export function proveVerdict(r: ProveResult): string {
  if (r.verdict === 'held') return `HELD for ${proveClaim(r)}`;
  if (r.verdict === 'incomplete')
    return `INCOMPLETE: ${incompleteWhy(r)}; nothing failed in ${proveClaim(r)}`;
  const p = r.failure?.preemptions ?? 0;
  const which =
    r.source === 'files'
      ? `"${r.failure?.caseFile.name}"`
      : `generated case ${count(r.failure?.caseNumber ?? r.cases)}`;
  return `FAILED: a schedule with ${p} preemption${p === 1 ? '' : 's'} breaks ${which} (the fewest preemptions that do; ${count(r.runs)} schedules run, ${count(r.pruned)} pruned)`;
}

/** Why nothing failing is not a proof: the schedule limit, or paths the server chose. */
function incompleteWhy(r: ProveResult): string {
  const limit = r.limitReached ? ['a case reached the schedule limit'] : [];
  const server =
    r.serverOrdered > 0
      ? [
          `in ${count(r.serverOrdered)} run${r.serverOrdered === 1 ? '' : 's'} PostgreSQL chose which of the lanes waiting on one lock went first, and only that path ran`,
        ]
      : [];
  return [...limit, ...server].join(', and ');
}

/** The summary block. */
export function formatProveSummary(r: ProveResult, context: { savedPath?: string } = {}): string {
  const source =
    r.source === 'generated'
      ? `${count(r.cases)} generated, each with a concurrent group, ≤ ${r.stepsMax} steps, ≤ ${r.lanesMax} lanes`
      : `${count(r.cases)} from case files`;
  return [
    `receiptcheck prove: ${r.handler} on ${r.engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`,
    `  cases      ${source}`,
    `  bound      ≤ ${r.preemptions} preemptions (switches away from a lane that could go on)`,
    `  schedules  ${count(r.runs)} run, ${count(r.pruned)} pruned by reduction${r.reduce ? '' : ' (off)'}, ${count(r.beyondBound)} past the bound, ${count(r.duplicates)} repeated`,
    `  time       ${(r.elapsedMs / 1000).toFixed(1)} s`,
    `  verdict    ${proveVerdict(r)}`,
    ...(context.savedPath ? [`  saved      ${context.savedPath}`] : []),
  ].join('\n');
}
