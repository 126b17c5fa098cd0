/**
 * Renders the difference between the model's database and the handler's, one line per row or
 * receipt that differs. Pure.
 */

import type { Row } from '../model/operation.ts';
import { describeField, describeResult } from '../model/outcome.ts';
import type { Receipt } from '../model/world.ts';
import type { SnapshotDifference } from '../types/verdict.ts';
import { readableKey } from './explain-failure.ts';

/** How many differences are listed before the rest is counted. */
export const DIFFERENCES_SHOWN = 8;

/** Lines such as `automation 1: expected interval 30 v2 in team-a, found interval 15 v1 in team-a`. */
export function formatSnapshotDiff(differences: readonly SnapshotDifference[]): string[] {
  const lines = differences
    .slice(0, DIFFERENCES_SHOWN)
    .map((d) =>
      'key' in d
        ? `receipt ${readableKey(d.key)}: expected ${receipt(d.expected)}, found ${receipt(d.actual)}`
        : `${d.what} ${d.id}: expected ${row(d.expected)}, found ${row(d.actual)}`,
    );
  if (differences.length > DIFFERENCES_SHOWN)
    lines.push(`… and ${differences.length - DIFFERENCES_SHOWN} more`);
  return lines;
}

/** `interval 30 v2 in team-a` for an automation; otherwise each field, e.g. `balance 900 in team-a`. */
function row(a: Row | undefined): string {
  if (!a) return 'no row';
  if ('intervalMinutes' in a && 'version' in a)
    return `interval ${a.intervalMinutes} v${a.version} in ${a.workspace}`;
  const fields = Object.entries(a)
    .filter(([k]) => k !== 'id' && k !== 'workspace')
    .map(([k, v]) => `${k} ${describeField(v)}`);
  if (a.workspace !== undefined) fields.push(`in ${a.workspace}`);
  return fields.join(' ') || `row ${a.id}`;
}

function receipt(r: Receipt | undefined): string {
  if (!r) return 'no receipt';
  const p = r.payload;
  const res = r.result;
  if ('interval' in p && 'intervalMinutes' in res)
    return `payload (automation ${p.id}, v${p.version}, ${p.interval} min) → result (interval ${res.intervalMinutes} v${res.version})`;
  const payload = Object.entries(p).map(([k, v]) => `${k} ${describeField(v)}`);
  return `payload (${payload.join(', ')}) → result (${describeResult(res)})`;
}
