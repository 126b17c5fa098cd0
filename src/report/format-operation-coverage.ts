/**
 * The summary's lines on the operation's own rules (`types/operation-coverage.ts`): calls at the
 * precondition's edge on each side, answers by kind, refusals by reason, concurrent groups and
 * how many conflict, and, for a check over several modes, each mode's share of the runs. Pure.
 */
import type { ModeShare, OperationCoverage } from '../types/operation-coverage.ts';

/** The names answers are listed by, in order; any other kind follows. */
const OUTCOME_NAMES: Readonly<Record<string, string>> = {
  fresh: 'fresh',
  replayed: 'replayed',
  refused: 'refused',
  keyReuse: 'key reuse',
  invalid: 'invalid',
  error: 'error',
  notSent: 'not sent',
};

/** The lines, each starting with its two-space indented label. */
export function formatOperationCoverage(c: OperationCoverage): string[] {
  const lines = [`  edges     ${edgesText(c)}`];
  const kinds = [
    ...Object.keys(OUTCOME_NAMES),
    ...Object.keys(c.outcomes).filter((k) => !(k in OUTCOME_NAMES)),
  ].filter((k) => (c.outcomes[k] ?? 0) > 0);
  lines.push(
    `  answers   ${kinds.map((k) => `${OUTCOME_NAMES[k] ?? k} ${c.outcomes[k]}`).join(' · ') || 'none'} (the model's)`,
  );
  const reasons = Object.entries(c.refusals).sort((a, b) => b[1] - a[1]);
  if (reasons.length > 0)
    lines.push(`  refusals  ${reasons.map(([reason, n]) => `${reason} ${n}`).join(' · ')}`);
  const { total, conflicting } = c.groups;
  lines.push(
    total === 0
      ? '  groups    none concurrent'
      : `  groups    ${total} concurrent, ${conflicting} conflicting (${Math.round((100 * conflicting) / total)}%): their order changes an answer or both write one row`,
  );
  return lines;
}

function edgesText(c: OperationCoverage): string {
  if (!c.precondition) return `none to seek: ${c.operation} has no precondition`;
  const fields = Object.entries(c.edges);
  if (fields.length === 0) return `none to seek: no ordered field besides the target`;
  const near = fields.filter(([, n]) => n.held + n.refused > 0);
  const never = fields.filter(([, n]) => n.held + n.refused === 0).map(([f]) => f);
  const counts = near.map(([f, n]) => `${f} ${n.held} held · ${n.refused} refused`).join('; ');
  // A field the precondition does not turn on has no edge to call next to (set_interval's
  // interval): named apart, so a 0 does not read as a gap in the run.
  const none =
    never.length === 0
      ? ''
      : `; no edge met on ${never.join(', ')} (the precondition did not turn on ${never.length === 1 ? 'it' : 'them'} in this run)`;
  return near.length === 0
    ? `no call next to the precondition's edge on ${never.join(', ')} in this run`
    : `${counts} (calls next to the precondition's edge, each side)${none}`;
}

/** The split line of a check over several modes: each mode's runs, of its share. */
export function formatSplit(split: readonly ModeShare[]): string {
  return `  split     ${split.map((s) => `${s.mode} ${s.runs === s.runsPlanned ? s.runs : `${s.runs} of ${s.runsPlanned}`}`).join(' · ')} runs`;
}
