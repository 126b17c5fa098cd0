/**
 * The nouns of the retry-receipt contract as plain data: automations, principals, receipts,
 * and the fixture every run starts from. Shared by the model, the handlers and the checkers.
 */

/** The scope a principal needs to call `set_interval`. */
export const WRITE_SCOPE = 'automation:write';

/** The tool revision that scopes every receipt key. */
export const TOOL = 'set_interval.v1';

/** A row of the `automations` table. */
export interface Automation {
  readonly id: number;
  readonly workspace: string;
  readonly intervalMinutes: number;
  readonly version: number;
}

/** Trusted request context, owned by the harness: a revocation changes scopes, not the database. */
export interface Principal {
  readonly user: string;
  readonly workspace: string;
  readonly scopes: readonly string[];
}

/** The validated, canonical payload a receipt binds its key to. */
export interface ReceiptPayload {
  readonly id: number;
  readonly version: number;
  readonly interval: number;
}

/** What a committed call returned: the automation row right after the write. */
export interface CallResult {
  readonly id: number;
  readonly intervalMinutes: number;
  readonly version: number;
}

/** One stored receipt: its key, the payload it binds, and the committed result it replays. */
export interface Receipt {
  readonly workspace: string;
  readonly user: string;
  readonly tool: string;
  readonly requestId: string;
  readonly payload: ReceiptPayload;
  readonly result: CallResult;
}

/** The database as the model sees it; `snapshot(db)` of a plugin must return this shape. */
export interface Snapshot {
  /** Sorted by id. */
  readonly automations: readonly Automation[];
  /** Sorted by (workspace, user, tool, requestId). */
  readonly receipts: readonly Receipt[];
}

/** Where every run starts: the rows a plugin's `setup` inserts, and the harness's principals. */
export interface Fixture {
  readonly automations: readonly Automation[];
  /** Indexed by client number: client `i` always speaks as `principals[i]`. */
  readonly principals: readonly Principal[];
  /** Workspaces that moves and re-creates pick from. */
  readonly workspaces: readonly string[];
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
export const DEFAULT_FIXTURE: Fixture = {
  automations: [
    { id: 1, workspace: 'team-a', intervalMinutes: 15, version: 1 },
    { id: 2, workspace: 'team-a', intervalMinutes: 15, version: 1 },
    { id: 20, workspace: 'team-b', intervalMinutes: 15, version: 1 },
  ],
  principals: [
    { user: 'alice', workspace: 'team-a', scopes: [WRITE_SCOPE] },
    { user: 'bob', workspace: 'team-a', scopes: [WRITE_SCOPE] },
    { user: 'alice', workspace: 'team-b', scopes: [WRITE_SCOPE] },
    { user: 'Alice', workspace: 'team-a', scopes: [WRITE_SCOPE] },
    { user: 'bob', workspace: 'Team-A', scopes: [WRITE_SCOPE] },
    { user: 'carol', workspace: 'team-a', scopes: ['automation:writer', 'Automation:write'] },
    { user: 'dave', workspace: 'team-b', scopes: ['automation:read', WRITE_SCOPE] },
  ],
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

/** The principals with client `client`'s write scope granted or removed (a revoke or restore). */
export function withWriteScope(
  principals: readonly Principal[],
  client: number,
  granted: boolean,
): Principal[] {
  const principal = principals[client];
  if (!principal) throw new RangeError(`no principal for client ${client}`);
  const next = [...principals];
  next[client] = scopedAs(principal, granted);
  return next;
}

/** `principal` with the write scope granted or removed, whatever it held before. */
export function scopedAs(principal: Principal, granted: boolean): Principal {
  const others = principal.scopes.filter((s) => s !== WRITE_SCOPE);
  return { ...principal, scopes: granted ? [...others, WRITE_SCOPE] : others };
}
