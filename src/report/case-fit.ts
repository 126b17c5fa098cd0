/**
 * Whether a case fits the operation it is of: its fixture lists the principals its clients speak
 * as and the operation's rows, and its calls send that operation's arguments. A case that does
 * not fit would still run, as something else (a create-once case read without its fixture runs
 * as set-interval, against no customers), and get a verdict about nothing; it is refused instead,
 * with the first misfit in words. Pure: `api/case-operation.ts` calls it once the operation is known.
 */
import type { Event, Step } from '../model/events.ts';
import type { OperationSpec } from '../model/operation.ts';
import type { FixtureWithPolicy } from '../model/state.ts';

/** The first way `fixture` and `steps` do not fit `spec`, as a phrase after the file's name; undefined when they fit. */
export function caseFitProblem(
  fixture: FixtureWithPolicy,
  steps: readonly Step[],
  spec: OperationSpec,
): string | undefined {
  const principals = (fixture as { principals?: unknown }).principals;
  if (!Array.isArray(principals))
    return `has a "fixture" without a "principals" list (client i speaks as principals[i])`;
  const bad = principals.findIndex((p) => !isPrincipal(p));
  if (bad >= 0)
    return `"fixture" principal ${bad}: needs "user" and "workspace" (strings) and "scopes" (a list of strings)`;
  if (!Array.isArray((fixture as Record<string, unknown>)[spec.table]))
    return `has a "fixture" without "${spec.table}", the ${spec.name} rows the case starts from (a list, empty if none)`;
  const known = new Set(['requestId', ...spec.fields.map((f) => f.name)]);
  for (const [i, s] of steps.entries()) {
    const events = s.kind === 'concurrent' ? s.events : [s];
    for (const [lane, event] of events.entries()) {
      const where = `step ${i + 1}${s.kind === 'concurrent' ? ` lane ${lane + 1}` : ''}`;
      const problem = eventProblem(event, principals.length, known, spec);
      if (problem) return `${where}: ${problem}`;
    }
  }
  return undefined;
}

function eventProblem(
  event: Event,
  principals: number,
  known: ReadonlySet<string>,
  spec: OperationSpec,
): string | undefined {
  if ('client' in event && (event.client < 0 || event.client >= principals))
    return `client ${event.client} has no principal (the fixture lists ${principals}, clients 0 to ${principals - 1})`;
  if (event.kind !== 'call') return undefined;
  const stranger = Object.keys(event.request).find((k) => !known.has(k));
  if (stranger === undefined) return undefined;
  const fields = spec.fields.map((f) => f.name).join(', ');
  return `the request names "${stranger}", which is no argument of ${spec.name} (${fields}); a case of another operation names it in its "fixture" ("operation")`;
}

function isPrincipal(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const p = value as Record<string, unknown>;
  return (
    typeof p.user === 'string' &&
    typeof p.workspace === 'string' &&
    Array.isArray(p.scopes) &&
    p.scopes.every((s) => typeof s === 'string')
  );
}
