/**
 * What the harness did to each call besides sending it, for the counterexample's steps: a
 * statement fault or a crash scheduled mode injected (read from the run's recorded grants, by
 * shape, so report/ depends on no execution code), and the receipt store failing (from the steps:
 * a `storeFail` world event not yet restored). Data first; `describeInjection` renders. Pure.
 */

import type { Step } from '../model/events.ts';

/** One thing done to a call beyond sending it. */
export type Injection =
  /** The write `sql` did not run; the handler got an SQLite error `code` instead. */
  | { readonly kind: 'fault'; readonly sql?: string; readonly code?: string }
  /** The call's connection died at `point` (`start`, before `sql`, or at the `reply`). */
  | { readonly kind: 'crash'; readonly point: string; readonly sql?: string }
  /** The receipt store was failing: it started at step `since` (0-based), or in this same group. */
  | { readonly kind: 'storeFailing'; readonly since: number; readonly sameGroup: boolean };

/** A grant as scheduled mode records it, read by shape. */
interface GrantShape {
  readonly step: number;
  readonly lane: number;
  readonly point?: string;
  readonly grant?: string;
  readonly sql?: string;
  readonly result?: string;
}

/** Key of a call: `step:lane`, both 0-based. */
export const placeKey = (step: number, lane: number): string => `${step}:${lane}`;

/** The faults and crashes a scheduled run's detail records, by `placeKey`; empty for other modes. */
export function scheduledInjections(detail: unknown): Map<string, Injection[]> {
  const out = new Map<string, Injection[]>();
  const entries = (detail as { entries?: unknown } | null | undefined)?.entries;
  if (!Array.isArray(entries)) return out;
  for (const e of entries as GrantShape[]) {
    if (typeof e !== 'object' || e === null || e.lane < 0) continue;
    let injection: Injection | undefined;
    if (e.grant === 'fault')
      injection = {
        kind: 'fault',
        ...(e.sql ? { sql: e.sql } : {}),
        ...(e.result ? { code: e.result } : {}),
      };
    else if (e.grant === 'crash')
      injection = {
        kind: 'crash',
        point: e.point ?? 'statement',
        ...(e.sql ? { sql: e.sql } : {}),
      };
    if (!injection) continue;
    const key = placeKey(e.step, e.lane);
    out.set(key, [...(out.get(key) ?? []), injection]);
  }
  return out;
}

/**
 * For each step, whether the receipt store was failing while its calls ran: the step where the
 * failure began, and whether that was this very group (so the call may have run before it).
 */
export function storeFailingAt(steps: readonly Step[]): (Injection | undefined)[] {
  let since: number | undefined;
  return steps.map((s, i) => {
    const events = s.kind === 'concurrent' ? s.events : [s];
    const before = since;
    let sameGroup = false;
    let restored = false;
    for (const e of events) {
      if (e.kind === 'storeFail') {
        since ??= i;
        sameGroup ||= before === undefined;
      } else if (e.kind === 'storeRestore') {
        since = undefined;
        restored = true;
      }
    }
    // A group that also restores the store: its calls may have run on either side of it.
    const from = restored ? undefined : (before ?? (sameGroup ? i : undefined));
    return from === undefined ? undefined : { kind: 'storeFailing', since: from, sameGroup };
  });
}

/** Most characters of a statement shown in a note. */
const SQL_SHOWN = 60;

/** One line for a report, e.g. ``fault injected: `UPDATE automations …` failed with SQLITE_…``. */
export function describeInjection(i: Injection): string {
  switch (i.kind) {
    case 'fault':
      return `fault injected: ${i.sql ? `${quoteSql(i.sql)} ` : 'a write '}did not run and failed with ${i.code ?? 'an SQLite error'}, as a failing receipt store does`;
    case 'crash':
      if (i.point === 'start')
        return 'crash injected before the call started: the client gets no answer';
      if (i.point === 'reply')
        return 'crash injected after the handler returned: what it committed stands, the client gets no answer';
      return `crash injected before ${i.sql ? quoteSql(i.sql) : 'a statement'}: its connection died, its open transaction rolled back, the client gets no answer`;
    case 'storeFailing':
      return i.sameGroup
        ? 'the receipt store starts failing in this same group (receipt inserts fail)'
        : `the receipt store is failing (since step ${i.since + 1}): receipt inserts fail`;
  }
}

function quoteSql(sql: string): string {
  const flat = sql.replace(/\s+/g, ' ').trim();
  return `\`${flat.length > SQL_SHOWN ? `${flat.slice(0, SQL_SHOWN - 1)}…` : flat}\``;
}
