/**
 * Renders the difference between the model's database and the handler's, one line per row or
 * receipt that differs. Pure.
 */

import type { Automation, Receipt } from '../model/world.ts';
import type { SnapshotDifference } from '../types/verdict.ts';
import { readableKey } from './explain-failure.ts';

/** How many differences are listed before the rest is counted. */
export const DIFFERENCES_SHOWN = 8;

/** Lines such as `automation 1: expected interval 30 v2 in team-a, found interval 15 v1 in team-a`. */
export function formatSnapshotDiff(differences: readonly SnapshotDifference[]): string[] {
  const lines = differences
    .slice(0, DIFFERENCES_SHOWN)
    .map((d) =>
      d.what === 'automation'
        ? `automation ${d.id}: expected ${row(d.expected)}, found ${row(d.actual)}`
        : `receipt ${readableKey(d.key)}: expected ${receipt(d.expected)}, found ${receipt(d.actual)}`,
    );
  if (differences.length > DIFFERENCES_SHOWN)
    lines.push(`… and ${differences.length - DIFFERENCES_SHOWN} more`);
  return lines;
}

function row(a: Automation | undefined): string {
  return a ? `interval ${a.intervalMinutes} v${a.version} in ${a.workspace}` : 'no row';
}

function receipt(r: Receipt | undefined): string {
  if (!r) return 'no receipt';
  const p = r.payload;
  const res = r.result;
  return `payload (automation ${p.id}, v${p.version}, ${p.interval} min) → result (interval ${res.intervalMinutes} v${res.version})`;
}
