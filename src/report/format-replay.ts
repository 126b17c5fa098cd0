/**
 * Renders what a replay came to (`receiptcheck replay`): the run the verdict rests on (the full
 * account when it failed), then one paragraph that says which verdict, how it was reached and
 * what it does not prove, and for a reproduced failure the triage line (`triage.ts`). Pure.
 */
import type { CaseFile } from '../types/case-file.ts';
import type { ReplayResult } from '../types/replay.ts';
import { caseResultReadable, caseVerdictLine, formatCaseResult } from './format-case-result.ts';
import { isServerOrdered } from './run-detail.ts';
import { triageLine, triageOf } from './triage.ts';

/** The verdict as it is printed and carried by `--json`: `reproduced`, `held`, `not reproduced`. */
export function replayVerdictText(r: ReplayResult): string {
  return r.verdict === 'notReproduced' ? 'not reproduced' : r.verdict;
}

/** The replay's text, ending in a newline; `notes` go after the verdict, before the triage line. */
export function formatReplay(
  c: CaseFile,
  r: ReplayResult,
  verbose = false,
  notes: readonly string[] = [],
): string {
  const steps = `${c.steps.length} step${c.steps.length === 1 ? '' : 's'}`;
  const lines: string[] = [];
  if (r.verdict === 'reproduced') lines.push(formatCaseResult(c, r.result, undefined, verbose), '');
  else if (r.verdict === 'held') lines.push(caseVerdictLine(c, r.result));
  else lines.push(`? ${c.name}: ${notReproducedIn(r)} against ${r.result.handler}`);
  lines.push(...explain(r, steps), ...notes);
  // What the user can change, last: only a failure the model's checks found has a switch to name.
  if (r.verdict === 'reproduced' && r.result.failures.length > 0)
    lines.push(triageLine(triageOf(caseResultReadable(c, r.result))));
  return `${lines.join('\n')}\n`;
}

function explain(r: ReplayResult, steps: string): string[] {
  const schedules = plural(r.schedules, 'schedule');
  switch (r.verdict) {
    case 'held':
      return [`held: the case no longer fails (${steps} replayed exactly)`];
    case 'reproduced':
      switch (r.route) {
        case 'saved schedule':
          return serverOrdered(r)
            ? [
                'reproduced: the scheduled reproduction saved with the case fails again.',
                `${SERVER_CHOSE} in this run, so a replay of it may take another path`,
              ]
            : [
                'reproduced: the scheduled reproduction saved with the case fails again, deterministically',
              ];
        case 'schedule search':
          return serverOrdered(r)
            ? [
                `reproduced in scheduled mode: schedule ${r.schedules} of the search (at most ${r.schedulesMax}) fails; the interleaving is shown above.`,
                `${SERVER_CHOSE} in this run, so a replay of it may take another path`,
              ]
            : [
                `reproduced in scheduled mode: schedule ${r.schedules} of the search (at most ${r.schedulesMax}) fails; the interleaving is shown above, and replays the same way every time`,
              ];
        case 'real threads':
          // No schedules searched: a described service, whose statements the scheduler cannot reach.
          return r.schedules === 0
            ? ['reproduced on real threads: timing showed it again']
            : [
                `reproduced on real threads (${schedules} in scheduled mode did not show it; timing did)`,
              ];
        case 'lane order':
          return [`reproduced in sequential mode, each group in lane order (${steps})`];
        case 'repeated schedule':
          return [
            `reproduced: run ${r.schedules} of the case's schedule fails (${steps}). ${SERVER_CHOSE}, so`,
            'runs of one schedule may take different paths; the failing one is shown above',
          ];
        default:
          return [`reproduced: the case still fails (${steps} replayed exactly)`];
      }
    default:
      if (r.route === 'repeated schedule')
        return [
          `${SERVER_CHOSE}, so one passing run`,
          `is not exact. ${plural(r.schedules, 'run')} of the case's schedule passed: that is not proof of a fix.`,
        ];
      return r.route === 'lane order'
        ? [
            'the case was found on real threads; sequential mode runs each group in lane order only,',
            'so a pass there says nothing of the race: replay without --mode to search schedules',
          ]
        : r.schedules === 0 && r.realThreads
          ? [
              'the case was found on real threads, where a race fails only when timing allows, and no',
              'schedule can be searched for it; no failure in one run there is not proof of a fix.',
              'Run it on real threads a few times more.',
            ]
          : [
              `the case was found on real threads, where a race fails only when timing allows. No failure in`,
              `${schedules} in scheduled mode${r.realThreads ? ' nor in one run on real threads' : ''}: that is not proof of a fix.`,
              'Search further with --schedules N, or run it on real threads a few times.',
            ];
  }
}

/** Why a scheduled PostgreSQL run of a case is not exact, as the replay says it. */
const SERVER_CHOSE =
  'PostgreSQL chose which of the lanes waiting on one lock went first (the schedule does not decide it)';

/** Whether the run the verdict rests on took a path the server chose (`serverOrdered`). */
function serverOrdered(r: ReplayResult): boolean {
  return isServerOrdered(r.result.detail);
}

function notReproducedIn(r: ReplayResult): string {
  if (r.route === 'lane order') return 'not reproduced in lane order (sequential mode)';
  if (r.route === 'repeated schedule')
    return `not reproduced in ${plural(r.schedules, 'run')} of its schedule`;
  if (r.schedules === 0 && r.realThreads) return 'not reproduced on real threads';
  return `not reproduced in ${plural(r.schedules, 'schedule')}${r.realThreads ? ' nor on real threads' : ''}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
