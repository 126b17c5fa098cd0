/**
 * Renders what scheduled mode recorded about a run: the statement-by-statement interleaving (one
 * column per lane, drawn by the scheduler) and the serial order its verdict rests on. Read from
 * the run's `detail` by shape, so report/ depends on no execution code. Pure.
 */

/**
 * The statement-by-statement interleaving a scheduled run recorded (one column per lane), and the
 * serial order its verdict rests on; nothing for other modes.
 */
export function formatInterleaving(
  detail: unknown,
  options: { readonly fullSql?: boolean } = {},
): string[] {
  if (typeof detail !== 'object' || detail === null) return [];
  const { lanes, order, entries } = detail as {
    lanes?: unknown;
    order?: unknown;
    entries?: unknown;
  };
  if (typeof lanes !== 'string') return [];
  const lines = ['Interleaving (statement by statement, one column per lane):'];
  lines.push(...lanes.split('\n').map((l) => (l ? `  ${l}` : l)));
  if (options.fullSql && Array.isArray(entries)) lines.push('', ...fullStatements(entries));
  // Say where the rest is: a clipped statement is often the one that matters.
  else if (Array.isArray(entries) && lanes.includes('…'))
    lines.push(
      '  (statements cut to fit a column: --verbose prints each in full, with its parameters)',
    );
  if (Array.isArray(order) && order.length > 0)
    lines.push(
      '',
      `Serial order checked: ${(order as { step: number; lane: number }[]).map((o) => `step ${o.step + 1} lane ${o.lane + 1}`).join(', ')}`,
    );
  return [...lines, ''];
}

/**
 * Every statement of the interleaving in full, numbered as in the lanes view (which clips them
 * to fit a column), with its bound parameters when the run recorded them.
 */
function fullStatements(entries: readonly unknown[]): string[] {
  const lines = ['Statements in full (numbered as above):'];
  entries.forEach((raw, i) => {
    const e = raw as { lane?: number; sql?: unknown; params?: unknown };
    if (typeof e.sql !== 'string') return;
    const who = typeof e.lane === 'number' && e.lane >= 0 ? `lane ${e.lane + 1}` : 'harness';
    const params = Array.isArray(e.params) ? `   -- parameters: ${e.params.join(', ')}` : '';
    const sql = e.sql.replace(/\s+/g, ' ').trim();
    lines.push(`  ${String(i + 1).padStart(4)}  ${who}: ${sql}${params}`);
  });
  return lines;
}
