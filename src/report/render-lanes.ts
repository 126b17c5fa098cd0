/**
 * The statement-level interleaving as text, one column per lane: which lane ran which statement,
 * where one was blocked, faulted or crashed, and where every lane was stuck. Pure: it computes a
 * string from trace entries; printing it is the caller's business.
 *
 *   step 2 · 2 lanes
 *      #  lane 1                     lane 2
 *      1  start
 *      2                             start
 *      3  BEGIN IMMEDIATE
 *      4                             BEGIN IMMEDIATE [blocked]
 */
import type { TraceEntry } from '../types/scheduled-trace.ts';

/** How the lanes are drawn. */
export interface LanesOptions {
  /** Characters per lane column. Default 44. */
  readonly columnWidth?: number;
  /** Only these steps (0-based); default every step with entries. */
  readonly steps?: readonly number[];
}

/** Renders `entries` as lanes, step by step. */
export function renderLanes(entries: readonly TraceEntry[], options: LanesOptions = {}): string {
  const width = Math.max(12, options.columnWidth ?? 44);
  const bySteps = new Map<number, TraceEntry[]>();
  entries.forEach((e) => {
    if (options.steps && !options.steps.includes(e.step)) return;
    const list = bySteps.get(e.step) ?? [];
    list.push(e);
    bySteps.set(e.step, list);
  });
  const blocks: string[] = [];
  let tick = 0;
  const ticks = new Map(entries.map((e) => [e, ++tick]));
  for (const [step, list] of [...bySteps].sort((a, b) => a[0] - b[0])) {
    const lanes = Math.max(1, ...list.map((e) => e.lane + 1));
    const head = `step ${step + 1} · ${lanes} lane${lanes === 1 ? '' : 's'}`;
    const columns = Array.from({ length: lanes }, (_, i) => pad(`lane ${i + 1}`, width));
    const lines = [head, `${pad('#', 6, true)}  ${columns.join('').trimEnd()}`];
    for (const e of list) {
      const n = pad(String(ticks.get(e) ?? ''), 6, true);
      if (e.lane < 0) {
        lines.push(`${n}  -- ${describeEntry(e)} --`);
        continue;
      }
      const cell = describeEntry(e, width - 2);
      lines.push(`${n}  ${' '.repeat(width * e.lane)}${cell}`.trimEnd());
    }
    blocks.push(lines.join('\n'));
  }
  return blocks.join('\n\n');
}

/**
 * One entry as a short phrase, the statement with its markers, e.g. `COMMIT [commit]`; the
 * statement text is clipped so the whole phrase fits in `width` characters, markers kept.
 */
export function describeEntry(e: TraceEntry, width = Number.POSITIVE_INFINITY): string {
  const text =
    e.point === 'start'
      ? 'start'
      : e.point === 'reply'
        ? 'reply'
        : e.point === 'stall'
          ? (e.sql ?? 'every lane left is blocked')
          : compact(e.sql ?? e.point);
  const [before, after] = frame(e);
  return `${before}${clip(text, width - before.length - after.length)}${after}`;
}

function frame(e: TraceEntry): [string, string] {
  switch (e.grant) {
    case 'crash':
      return ['[CRASH] before ', ''];
    case 'fault':
      return [`[FAULT ${e.result ?? 'injected'}] `, ''];
    case 'giveUp':
      return ['', ` [busy timeout: ${e.result ?? 'SQLITE_BUSY'}]`];
    default:
      return ['', marker(e)];
  }
}

function marker(e: TraceEntry): string {
  if (e.result === undefined || e.result === 'ok') return e.durable ? ' [commit]' : '';
  return e.result === 'blocked' ? ' [blocked]' : ` [${e.result}]`;
}

function compact(sql: string): string {
  return sql.replace(/\s+/g, ' ').trim();
}

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  return max <= 1 ? '…' : `${text.slice(0, max - 1)}…`;
}

function pad(text: string, width: number, left = false): string {
  return left ? text.padStart(width) : text.padEnd(width);
}
