/**
 * A soak run as text: what was issued, what the clients heard, what the check found. Pure; the
 * `soak` command prints it (or the result as JSON).
 */

import type { OperationSpec } from '../model/operation.ts';
import { describeOutcome, sameOutcome } from '../model/outcome.ts';
import type { Fixture } from '../model/world.ts';
import type { SoakResult } from '../types/results.ts';
import type { LinearizabilityFailure, PlacedOperation } from '../types/verdict.ts';
import { describeEvent } from './describe-event.ts';
import { explainFailure } from './explain-failure.ts';
import { formatHandlerOutput } from './format-counterexample.ts';
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
      const e = explainFailure(f, r.spec);
      lines.push(`  - ${e.rule ? `rule ${e.rule}: ` : ''}${e.text}`);
      if (f.kind === 'linearizability') lines.push(...formatOrder(f, r.fixture, r.spec));
    }
    const output = formatHandlerOutput(r.handlerOutput);
    if (output.length > 0) lines.push('', ...output.slice(0, -1));
  }
  return lines.join('\n');
}

/**
 * The part of the history that matters, one operation a line: the end of the longest order that
 * fits, then the operations that could not come next, with what each got and what the contract
 * gives there.
 */
function formatOrder(f: LinearizabilityFailure, fixture: Fixture, spec: OperationSpec): string[] {
  if (f.verdict !== 'illegal') return [];
  const total = f.prefixLength ?? f.longestPrefix.length;
  const lines = [
    `    the longest order that fits${total > f.longestPrefix.length ? `, its last ${f.longestPrefix.length} of ${total}` : ''}:`,
    ...f.longestPrefix.map((op) => `      ${operationLine(op, fixture, spec)}`),
    '    could not come next:',
  ];
  for (const op of f.stuck) {
    lines.push(`      ${operationLine(op, fixture, spec)}`);
    if (op.expected && op.observed && !sameOutcome(op.expected, op.observed))
      lines.push(`        ✗ the contract gives ${describeOutcome(op.expected)} here`);
  }
  return lines;
}

function operationLine(op: PlacedOperation, fixture: Fixture, spec: OperationSpec): string {
  const who = op.lane < 0 ? 'harness ' : `client ${op.lane + 1}`;
  const got = op.observed ? ` → ${describeOutcome(op.observed)}` : '';
  return `#${op.id} ${who}  ${describeEvent(op.event, fixture, spec)}${got}`;
}
