/**
 * Invariant, for a spec that declares `versioned`: every fresh `ok` advanced its row's version by
 * exactly 1, so within one incarnation of an id the fresh results carry versions base+1, base+2,
 * … with no gap or repeat, and the live row ends at the last of them. Versions therefore never
 * decrease.
 */

import { targetRows } from '../../model/operation.ts';
import type { CallResult } from '../../model/world.ts';
import type { InvariantViolation } from '../../types/verdict.ts';
import type { RunRecord } from '../run-record.ts';
import { freshOks, lastRecreate } from '../run-record.ts';

export const FRESH_ADVANCES_VERSION = 'fresh ok advances the version by exactly 1';

/** Checks the invariant; undefined when it holds. */
export function checkFreshAdvancesVersion(run: RunRecord): InvariantViolation | undefined {
  // Declared by the spec (`versioned`); other operations: effects-match-receipts.ts
  const { spec } = run;
  if (!spec.versioned) return undefined;
  const start = targetRows(run.fixture, spec);
  const recreatedAt = lastRecreate(run.steps);
  const byId = new Map<number, { version: number; step: number }[]>();
  for (const o of freshOks(run.trace)) {
    if (o.observed.kind !== 'ok') continue;
    const since = recreatedAt.get((o.observed.result as CallResult).id);
    if (since !== undefined && o.step < since) continue; // an earlier incarnation
    const list = byId.get((o.observed.result as CallResult).id) ?? [];
    list.push({ version: (o.observed.result as CallResult).version, step: o.step });
    byId.set((o.observed.result as CallResult).id, list);
  }
  for (const [id, list] of byId) {
    const base = recreatedAt.has(id)
      ? 1
      : ((start.find((a) => a.id === id)?.version as number | undefined) ?? 1);
    // The list is this run's own: sorted in place.
    const sorted = list.sort(byVersion);
    for (let i = 0; i < sorted.length; i++) {
      const entry = sorted[i];
      if (entry && entry.version !== base + i + 1) {
        return {
          invariant: FRESH_ADVANCES_VERSION,
          message: `${spec.noun} ${id}: fresh results carry versions ${sorted.map((e) => e.version).join(', ')}, expected ${sorted.map((_, k) => base + k + 1).join(', ')}`,
          step: entry.step,
        };
      }
    }
    const live = targetRows(run.trace.snapshot, spec).find((a) => a.id === id);
    const last = sorted.at(-1);
    if (
      live &&
      last &&
      live.version !== last.version &&
      !run.trace.observations.some((o) => o.step > last.step && o.observed.kind === 'unexpected')
    ) {
      return {
        invariant: FRESH_ADVANCES_VERSION,
        message: `${spec.noun} ${id} ends at version ${live.version}, but its last fresh result was version ${last.version}`,
        step: last.step,
      };
    }
  }
  return undefined;
}

function byVersion(a: { version: number }, b: { version: number }): number {
  return a.version - b.version;
}
