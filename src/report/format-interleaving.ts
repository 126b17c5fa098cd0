/**
 * Renders what scheduled mode recorded about a run: the statement-by-statement interleaving (one
 * column per lane, drawn by the scheduler) and the serial order its verdict rests on. Read from
 * the run's `detail` by shape, so report/ depends on no execution code. Pure.
 */

/**
 * The statement-by-statement interleaving a scheduled run recorded (one column per lane), and the
 * serial order its verdict rests on; nothing for other modes.
 */
export function formatInterleaving(detail: unknown): string[] {
  if (typeof detail !== 'object' || detail === null) return [];
  const { lanes, order } = detail as { lanes?: unknown; order?: unknown };
  if (typeof lanes !== 'string') return [];
  const lines = ['Interleaving (statement by statement, one column per lane):'];
  lines.push(...lanes.split('\n').map((l) => (l ? `  ${l}` : l)));
  if (Array.isArray(order) && order.length > 0)
    lines.push(
      '',
      `Serial order checked: ${(order as { step: number; lane: number }[]).map((o) => `step ${o.step + 1} lane ${o.lane + 1}`).join(', ')}`,
    );
  return [...lines, ''];
}
