/**
 * The input space a handler sees, as classes, and how a value is classified. Pure. The class
 * names are `types/input-coverage.ts`; the generators draw from every class (`request-ids.ts`,
 * `edge-values.ts`, the fixture's principals) and a run counts the classes it reached
 * (`report/input-coverage.ts`). A value may be in several classes, or in none (an ordinary
 * value such as `r3`, automation 2 or 30 minutes). Every class but a field's applies to every
 * operation; the principal's write scope is the fixture's operation's.
 *
 * Each class is a place where a real handler departs from the contract (docs/contract.md) while
 * passing on ordinary input. `testing/handlers/input-bugs/` holds such handlers, at least one
 * per family, and `testing/input-bugs.test.ts` shows that its classes, and only they, catch
 * each one.
 *
 * **requestId** (rule 2: a string of 1–64 characters from `[A-Za-z0-9_-]`).
 * - Valid lengths at each limit a storage layer has: 1; 36 (a UUID-sized column) and 37 just
 *   past it; 63 and 64, the contract's limit. A column capped at 36 truncates or rejects 37.
 * - Valid character classes: digits only (a numeric column affinity or a JSON number turns `07`
 *   into 7); `_` or `-` at an edge (slug validators that demand a letter first, trimming of
 *   dashes); mixed case.
 * - Case: an id that differs only in case from an id the same client sent earlier (`R3` after
 *   `r3`). They are distinct keys: a key column that compares case-insensitively (`COLLATE
 *   NOCASE`, MySQL's default collation) answers the new intent from the old receipt.
 * - Invalid lengths: empty (0), 65 exactly, longer than 65.
 * - Look-alikes, all invalid: a space at an edge (`r0 `: a handler that trims accepts it),
 *   punctuation or a space inside, NUL (C strings end there), accented letters (`é`),
 *   homoglyphs (Cyrillic `а`, Greek `ο`: a Unicode-letter pattern accepts them), full-width
 *   letters and digits (`ｒ０`: NFKC normalisation turns them into `r0`), emoji.
 * - Types, all invalid: number, null, boolean, array, object (`String(x)` coercion accepts
 *   `42`, `true`, `['r0']`).
 *
 * **The operation's fields** (`field-classes.ts` derives their classes from each field's rule).
 * For `set-interval`:
 * - automationId, expectedVersion (rule 3: a safe integer ≥ 1, of type number). Valid: 1, the
 *   smallest; beyond 32 bits (2^31 and up: `x | 0` or an INT column wraps 2^32 + 1 to 1);
 *   MAX_SAFE_INTEGER, the largest. Rows never have such ids or versions, so the answers are
 *   `unavailable` and `conflict`. Invalid: 0, negative, unsafe integer (2^53:
 *   `Number.isInteger` accepts it), fraction, NaN or Infinity, numeric string (`'1'`:
 *   `Number(x)` accepts it), other string, boolean, null.
 * - intervalMinutes (rule 4: a safe integer from 5 to 1440). Valid: 5 and 1440, each limit (an
 *   off-by-one `<` rejects them). Invalid: 4 and 1441, just past each limit; 0; negative; far
 *   out of range; then the same types as above.
 *
 * **principal** (rules 1, 6 and the receipt key). Who a principal is, relative to the
 * principals before it in the fixture, and what it holds at the time of a call:
 * - another user in the same workspace, the same user in another workspace (the key's user and
 *   workspace parts);
 * - a user that an earlier principal of the same workspace spells in another case only (Alice
 *   after alice), a workspace that an earlier principal spells in another case only (Team-A
 *   after team-a): a case-insensitive user or workspace column merges two principals' receipts,
 *   or lets one into the other's rows;
 * - no scopes (a revoked principal; scope changes only touch principals that hold the write
 *   scope in the fixture); extra scopes beside the operation's scope (a check of the
 *   first scope, or of the scope string as a whole, refuses it); scopes, but not the write scope
 *   (a check for any scope lets it write); among them, a look-alike of the write scope
 *   (`automation:writer`, `Automation:write`: a prefix or case-insensitive comparison lets it
 *   write).
 *
 * A class counts as reached by a call the handler had to judge on it: a delivered call (or a
 * lost response) from a principal with the write scope, whose earlier fields, in the rules'
 * order, are valid. A principal class counts on every call the handler receives.
 */
import type { CallRequest } from '../model/events.ts';
import type { OperationSpec } from '../model/operation.ts';
import { DEFAULT_OPERATION } from '../model/operations/index.ts';
import { fieldHolds, isRequestId } from '../model/validate.ts';
import type { Fixture, Principal } from '../model/world.ts';
import type { InputClass } from '../types/input-coverage.ts';
import { type ClassName, valueClasses } from './field-classes.ts';
import { requestIdShape, requestIdTypeClasses } from './request-id-classes.ts';

/** The classes of a request id, given the valid ids the same client sent before it. */
export function requestIdClasses(value: unknown, earlier: Iterable<string> = []): InputClass[] {
  if (typeof value !== 'string') return [...requestIdTypeClasses(value)];
  const shape = requestIdShape(value);
  const out: InputClass[] = [...shape.classes];
  if (shape.valid && differsOnlyInCase(value, earlier))
    out.push('requestId differs only in case from an earlier one');
  return out;
}

function differsOnlyInCase(value: string, earlier: Iterable<string>): boolean {
  const lower = value.toLowerCase();
  for (const e of earlier) if (e !== value && e.toLowerCase() === lower) return true;
  return false;
}

/**
 * The classes of `value` sent as `field` (`requestId` or one of `spec`'s fields, default
 * `set-interval`'s); `earlier` is what `requestIdClasses` needs.
 */
export function fieldClasses(
  field: string,
  value: unknown,
  earlier: Iterable<string> = [],
  spec: OperationSpec = DEFAULT_OPERATION,
): ClassName[] {
  if (field === 'requestId') return requestIdClasses(value, earlier);
  const argument = spec.fields.find((f) => f.name === field);
  if (!argument) throw new RangeError(`${field} is not a field of ${spec.name}`);
  return valueClasses(argument, value);
}

/**
 * The classes a call reaches in its request: each field's, up to and including the first
 * invalid one (the rules stop there). `earlier`: the valid ids this client sent before.
 */
export function requestClasses(
  request: CallRequest,
  earlier: Iterable<string>,
  spec: OperationSpec = DEFAULT_OPERATION,
): ClassName[] {
  // Counted for every call of every run: one array, filled in place.
  const out: ClassName[] = requestIdClasses(request.requestId, earlier);
  if (!isRequestId(request.requestId)) return out;
  for (const field of spec.fields) {
    const value = request[field.name];
    for (const c of valueClasses(field, value)) out.push(c);
    if (!fieldHolds(field, value)) break;
  }
  return out;
}

/**
 * The classes of client `client`'s principal as it stands now (`principal`: its scopes may
 * have changed since the fixture), relative to the fixture's principals before it.
 */
export function principalClasses(
  fixture: Fixture,
  spec: OperationSpec,
  client: number,
  principal: Principal | undefined = fixture.principals[client],
): readonly InputClass[] {
  if (!principal) return [];
  // Coverage asks for every call of every run, nearly always for a fixture principal: the
  // classes derive from the operation, the fixture and the principal object alone, so they
  // are kept.
  let byFixture = principalClassCache.get(spec);
  if (!byFixture) {
    byFixture = new WeakMap();
    principalClassCache.set(spec, byFixture);
  }
  let byPrincipal = byFixture.get(fixture);
  if (!byPrincipal) {
    byPrincipal = new WeakMap();
    byFixture.set(fixture, byPrincipal);
  }
  let byClient = byPrincipal.get(principal);
  if (!byClient) {
    byClient = new Map();
    byPrincipal.set(principal, byClient);
  }
  let classes = byClient.get(client);
  if (!classes) {
    classes = Object.freeze(classesOfPrincipal(fixture, spec.scope, client, principal));
    byClient.set(client, classes);
  }
  return classes;
}

/** `principalClasses` already worked out, by operation, fixture, principal object and client. */
const principalClassCache = new WeakMap<
  OperationSpec,
  WeakMap<Fixture, WeakMap<Principal, Map<number, readonly InputClass[]>>>
>();

function classesOfPrincipal(
  fixture: Fixture,
  writeScope: string,
  client: number,
  principal: Principal,
): InputClass[] {
  const out: InputClass[] = [];
  const { user, workspace } = principal;
  const before = fixture.principals.slice(0, client);
  const lower = (s: string) => s.toLowerCase();
  if (before.some((p) => p.workspace === workspace && lower(p.user) !== lower(user)))
    out.push('principal another user in the same workspace');
  if (before.some((p) => p.user === user && lower(p.workspace) !== lower(workspace)))
    out.push('principal same user in another workspace');
  // A new spelling of a name seen before: no earlier principal has it exactly, one has it
  // ignoring case.
  const here = before.filter((p) => p.workspace === workspace);
  if (!here.some((p) => p.user === user) && here.some((p) => lower(p.user) === lower(user)))
    out.push('principal user differs only in case');
  if (
    !before.some((p) => p.workspace === workspace) &&
    before.some((p) => lower(p.workspace) === lower(workspace))
  )
    out.push('principal workspace differs only in case');
  out.push(...scopeClasses(principal.scopes, writeScope));
  return out;
}

/** The clients whose fixture principal is in none of `excluded`'s classes, in order. */
export function clientsOutside(
  fixture: Fixture,
  spec: OperationSpec,
  excluded: ReadonlySet<ClassName>,
): number[] {
  return fixture.principals.flatMap((_, i) =>
    principalClasses(fixture, spec, i).some((c) => excluded.has(c)) ? [] : [i],
  );
}

/**
 * What a principal's scopes hold, as classes; none for the write scope (`writeScope`, the
 * operation's scope, default `set-interval`'s) alone.
 */
export function scopeClasses(
  scopes: readonly string[],
  writeScope: string = DEFAULT_OPERATION.scope,
): InputClass[] {
  if (scopes.length === 0) return ['principal no scopes'];
  if (scopes.includes(writeScope))
    return scopes.some((s) => s !== writeScope) ? ['principal extra scopes'] : [];
  return scopes.some((s) => isLookAlikeScope(s, writeScope))
    ? ['principal scopes without the write scope', 'principal look-alike scope']
    : ['principal scopes without the write scope'];
}

/**
 * A scope that is not the write scope (default `set-interval`'s) but equals it ignoring case and
 * spaces, or extends it.
 */
export function isLookAlikeScope(
  scope: string,
  writeScope: string = DEFAULT_OPERATION.scope,
): boolean {
  if (scope === writeScope) return false;
  return scope.trim().toLowerCase() === writeScope.toLowerCase() || scope.startsWith(writeScope);
}
