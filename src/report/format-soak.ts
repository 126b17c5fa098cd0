/**
 * A soak run as text: what was issued, what the clients heard, what the check found. Pure; the
 * `soak` command prints it (or the result as JSON).
 */
import type { SoakResult } from '../types/results.ts';
import { explainFailure } from './explain-failure.ts';
import { formatElapsed } from './format-summary.ts';

const VERDICTS: Record<SoakResult['verdict'], string> = {
  passed:
    'PASSED: the history is linearizable, and the final database and the invariants agree with it',
  failed: 'FAILED: see the failures below',
  unknown:
    'UNKNOWN: the check reached its time limit before deciding (raise --check-time-limit, or soak for less)',
};

/** The soak's summary, then one line per failure with the contract rule it broke. */
export function formatSoak(r: SoakResult, durationMs: number): string {
  const c = r.counts;
  const outcomes = Object.entries(c.outcomes)
    .sort((a, b) => b[1] - a[1])
    .map(([kind, n]) => `${kind} ${n}`)
    .join(' · ');
  const lines = [
    `receiptcheck soak: ${r.handlerName} (${r.handler}), ${r.clients} clients for ${formatElapsed(durationMs)}`,
    `  seed        ${r.seed} (the clients' choices; timing is not seeded, so runs differ)`,
    `  operations  ${c.operations} (${c.calls} calls, ${c.worldEvents} world events) in ${formatElapsed(r.issueMs)}: ${Math.round(r.operationsPerSecond)} a second`,
    `  lost        ${c.lostResponses} responses, ${c.lostRequests} requests`,
    `  outcomes    ${outcomes || 'none'}`,
    `  check       ${formatElapsed(r.checkMs)}`,
    `  verdict     ${VERDICTS[r.verdict]}`,
  ];
  if (r.failures.length > 0) {
    lines.push('', 'Failures:');
    for (const f of r.failures) {
      const e = explainFailure(f);
      lines.push(`  - ${e.rule ? `rule ${e.rule}: ` : ''}${e.text}`);
    }
  }
  return lines.join('\n');
}
