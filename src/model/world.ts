/**
 * The nouns of the retry-receipt contract as plain data: principals, receipts, fixtures and
 * snapshots, generic over the operation (`operation.ts`); and the article's `set_interval`
 * instances of them (automations, their results and payloads, the default fixture). Shared by
 * the model, the handlers and the checkers.
 */

/** A row of a resource table. Target rows also carry a `workspace`; other fields are the spec's. */
export interface Row {
  readonly id: number;
  readonly [field: string]: number | string;
}

/** What a committed call returned (replays return the stored one). Numbers and strings only. */
export type Result = Readonly<Record<string, number | string>>;

/**
 * The canonical payload a receipt binds its key to: the validated arguments that define the
 * intent. Booleans for a custom field whose values are booleans.
 */
export type Payload = Readonly<Record<string, number | string | boolean>>;

/** A call's validated arguments, by field name (the request id excluded). */
export type Args = Readonly<Record<string, number | string | boolean>>;

/** The scope a principal needs to call `set_interval`. */
export const WRITE_SCOPE = 'automation:write';

/** The tool revision that scopes every receipt key. */
export const TOOL = 'set_interval.v1';

/** A row of the `automations` table. */
export type Automation = {
  readonly id: number;
  readonly workspace: string;
  readonly intervalMinutes: number;
  readonly version: number;
};

/** Trusted request context, owned by the harness: a revocation changes scopes, not the database. */
export interface Principal {
  readonly user: string;
  readonly workspace: string;
  readonly scopes: readonly string[];
}

/** `set_interval`'s canonical payload: the validated arguments a receipt binds its key to. */
export type ReceiptPayload = {
  readonly id: number;
  readonly version: number;
  readonly interval: number;
};

/** What a committed `set_interval` call returned: the automation row right after the write. */
export type CallResult = {
  readonly id: number;
  readonly intervalMinutes: number;
  readonly version: number;
};

/** One stored receipt: its key, the payload it binds, and the committed result it replays. */
export interface Receipt {
  readonly workspace: string;
  readonly user: string;
  readonly tool: string;
  readonly requestId: string;
  readonly payload: Payload;
  readonly result: Result;
}

/**
 * The database as the model sees it; `snapshot(db)` of a plugin must return this shape: the
 * receipts, and each of the operation's tables by name (`automations` for `set_interval`).
 */
export interface Snapshot {
  /** Sorted by (workspace, user, tool, requestId). */
  readonly receipts: readonly Receipt[];
  /** The operation's tables (arrays of rows, each sorted by id); read them with `targetRows`. */
  readonly [table: string]: unknown;
}

/** A `set_interval` snapshot: the automations and the receipts. */
export interface SetIntervalSnapshot extends Snapshot {
  readonly automations: readonly Automation[];
}

/**
 * Where every run starts: the rows a plugin's `setup` inserts, by table (`automations` for
 * `set_interval`), and the harness's principals.
 */
export interface Fixture {
  /** Indexed by client number: client `i` always speaks as `principals[i]`. */
  readonly principals: readonly Principal[];
  /** Workspaces that moves and re-creates pick from. */
  readonly workspaces: readonly string[];
  /** The operation's tables (arrays of rows); read them with `targetRows` and `createdRows`. */
  readonly [table: string]: unknown;
}

/** A `set_interval` fixture: automations, principals, workspaces. */
export interface SetIntervalFixture extends Fixture {
  readonly automations: readonly Automation[];
}

/**
 * The seven principals every built-in fixture uses, for an operation needing `scope`. After the
 * article's three (clients 0–2, which its scenarios use), one for each unusual principal class a
 * handler may get wrong (`generate/input-classes.ts`): see `DEFAULT_FIXTURE`. Carol's look-alike
 * scopes differ from `scope` by a trailing `r` and by case.
 */
export function defaultPrincipals(scope: string): Principal[] {
  const colon = scope.indexOf(':');
  const [noun, verb] = colon < 0 ? [scope, ''] : [scope.slice(0, colon), scope.slice(colon)];
  const capitalised = `${noun.charAt(0).toUpperCase()}${noun.slice(1)}${verb}`;
  return [
    { user: 'alice', workspace: 'team-a', scopes: [scope] },
    { user: 'bob', workspace: 'team-a', scopes: [scope] },
    { user: 'alice', workspace: 'team-b', scopes: [scope] },
    { user: 'Alice', workspace: 'team-a', scopes: [scope] },
    { user: 'bob', workspace: 'Team-A', scopes: [scope] },
    { user: 'carol', workspace: 'team-a', scopes: [`${scope}r`, capitalised] },
    { user: 'dave', workspace: 'team-b', scopes: [`${noun}:read`, scope] },
  ];
}

/**
 * The default fixture, after the article: two automations in team-a and one in team-b, and
 * principals chosen so that key scoping matters (alice and bob share a workspace; alice also
 * speaks in team-b, so the same user and request id meet in two workspaces). After those three
 * (clients 0–2, which the article's scenarios use), one principal for each unusual principal
 * class a handler may get wrong (`generate/input-classes.ts`): Alice, whose user differs from
 * alice's only in case; bob in Team-A, a workspace that differs from team-a only in case and
 * holds no automation; carol, with look-alike scopes but not the write scope; dave, with a scope
 * beside the write scope.
 */
export const DEFAULT_FIXTURE: SetIntervalFixture = {
  automations: [
    { id: 1, workspace: 'team-a', intervalMinutes: 15, version: 1 },
    { id: 2, workspace: 'team-a', intervalMinutes: 15, version: 1 },
    { id: 20, workspace: 'team-b', intervalMinutes: 15, version: 1 },
  ],
  principals: defaultPrincipals(WRITE_SCOPE),
  workspaces: ['team-a', 'team-b'],
};

/** Orders receipts the way snapshots list them. */
export function compareReceiptKeys(a: Receipt, b: Receipt): number {
  return (
    cmp(a.workspace, b.workspace) ||
    cmp(a.user, b.user) ||
    cmp(a.tool, b.tool) ||
    cmp(a.requestId, b.requestId)
  );
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The principals with client `client`'s write scope (`scope`, by default `set_interval`'s)
 * granted or removed (a revoke or restore).
 */
export function withWriteScope(
  principals: readonly Principal[],
  client: number,
  granted: boolean,
  scope: string = WRITE_SCOPE,
): Principal[] {
  const principal = principals[client];
  if (!principal) throw new RangeError(`no principal for client ${client}`);
  const next = [...principals];
  next[client] = scopedAs(principal, granted, scope);
  return next;
}

/** The principals after a revoke (the write scope `scope` removed) or a restore (granted back). */
export function afterScopeChange(
  principals: readonly Principal[],
  event: { readonly kind: 'revoke' | 'restore'; readonly client: number },
  scope: string,
): Principal[] {
  return withWriteScope(principals, event.client, event.kind === 'restore', scope);
}

/** `principal` with the write scope granted or removed, whatever it held before. */
export function scopedAs(principal: Principal, granted: boolean, scope = WRITE_SCOPE): Principal {
  const others = principal.scopes.filter((s) => s !== scope);
  return { ...principal, scopes: granted ? [...others, scope] : others };
}
