/**
 * Turns abstract moves into a concrete sequence of steps. Pure and deterministic: it steps the
 * model alongside to keep each client's knowledge current, so that a retry resends a request
 * the client really sent, a new intent expects the version the client really saw, and a
 * re-create only follows a delete. A move that cannot apply (no request to retry) is dropped.
 */
import type { CallEvent, CallRequest, Delivery, Event, Step } from '../model/events.ts';
import type { OperationSpec, Row } from '../model/operation.ts';
import type { ModelState } from '../model/state.ts';
import { invalidField } from '../model/validate.ts';
import type { Fixture } from '../model/world.ts';
import { type ClientKnowledge, freshId, initialKnowledge, learn } from './client-knowledge.ts';
import { conflictingRace, type GroupMaker } from './conflicting-race.ts';
import type { ClassName } from './field-classes.ts';
import { keepModelWalk, WalkRecorder } from './model-walk.ts';
import type { Move, VersionChoice } from './moves.ts';
import { fillOtherTargets, ownRowIds, withOtherTargetChanged } from './other-targets.ts';
import type { Values } from './race-events.ts';
import { type IdChoice, SIMPLE_ID } from './request-ids.ts';
import { MISSING_ID, type ResolverBasis, resolverBasis } from './resolver-basis.ts';
import { seekRequest } from './seek-request.ts';
import type { FieldValue, ValueField } from './value-fields.ts';
import { worldMoveEvent } from './world-move-events.ts';

/**
 * How moves resolve: the operation they call (the one the run checks), and the input classes no
 * new request id may fall in (default none).
 */
export interface ResolveOptions {
  readonly spec: OperationSpec;
  readonly excludeInputClasses?: readonly ClassName[];
}

/** Resolves `moves` into steps for `fixture`, of the options' operation. */
export function resolveMoves(
  fixture: Fixture,
  moves: readonly Move[],
  options: ResolveOptions,
): Step[] {
  const r = new Resolver(
    fixture,
    resolverBasis(fixture, options.spec, options.excludeInputClasses ?? []),
  );
  const steps: Step[] = [];
  for (const move of moves) {
    const s = r.resolve(move);
    if (s) steps.push(s);
  }
  keepModelWalk(steps, r.walk.walk(fixture, r.modelState));
  return steps;
}

class Resolver implements GroupMaker {
  private state: ModelState;
  /** The model's walk over every step emitted so far (`model-walk.ts`). */
  readonly walk = new WalkRecorder();
  readonly clients: ClientKnowledge[];
  private readonly excluded: ReadonlySet<ClassName>;
  /** Clients whose principal is in no excluded class. */
  readonly clientsAllowed: readonly number[];
  readonly spec: OperationSpec;
  /** The fixture's target rows, which moves, deletes and missing targets pick among. */
  private readonly rows: readonly Row[];
  private readonly anyIds: readonly number[];
  readonly fields: readonly ValueField[];
  /** The expected version's field, for a versioned operation. */
  readonly version: string | undefined;

  constructor(
    private readonly fixture: Fixture,
    private readonly basis: ResolverBasis,
  ) {
    this.excluded = basis.excluded;
    this.spec = basis.spec;
    this.state = basis.initial;
    this.clients = initialKnowledge(fixture, this.spec);
    this.clientsAllowed = basis.allowed;
    this.rows = basis.rows;
    this.anyIds = basis.anyIds;
    this.fields = basis.fields;
    this.version = basis.version;
  }

  /** The model's state after every event emitted so far. */
  get modelState(): ModelState {
    return this.state;
  }

  rowOf(id: number): Row | undefined {
    return this.state.rows.get(id);
  }

  readonly allows = (field: string, value: number): boolean => this.basis.allows(field, value);

  resolve(move: Move): Step | undefined {
    if (move.kind === 'race') {
      const { events, conflicts } = conflictingRace(this, move);
      this.apply(events, conflicts);
      return { kind: 'concurrent', events };
    }
    const event = this.event(move);
    if (event) this.apply([event]);
    return event;
  }

  private event(move: Exclude<Move, { kind: 'race' }>): Event | undefined {
    switch (move.kind) {
      case 'intent':
        return this.call(
          move.client,
          this.newRequest(move.client, move.target, move.values, move.version ?? 'known', move.id),
          move.delivery,
          'new',
        );
      case 'retry': {
        const request = this.previous(move.client, move.pick);
        return request && this.call(move.client, request, move.delivery, 'retry');
      }
      case 'reuse': {
        const request = this.previous(move.client, move.pick);
        return (
          request &&
          this.call(move.client, this.changed(request, move.change), move.delivery, 'reuse')
        );
      }
      case 'seek': {
        const request = this.newRequest(move.client, move.target, {}, 'known');
        return this.call(move.client, seekRequest(this, move, request), move.delivery, 'new');
      }
      case 'edge': {
        const request = {
          ...this.newRequest(move.client, move.target, {}, 'known'),
          [move.field]: move.value,
        };
        const intent = invalidField(request, this.spec) ? 'invalid' : 'new';
        return this.call(move.client, request, 'delivered', intent);
      }
      default:
        return worldMoveEvent(move, {
          rows: this.rows,
          state: this.state,
          anyTarget: (t) => this.anyTarget(t),
          workspace: (i) => this.workspace(i),
        });
    }
  }

  /**
   * `request` with `change` made: another target, the expected version one ahead, or the other
   * usual value of a value field. A change the operation has no field for leaves it as it was.
   */
  changed(request: CallRequest, change: string): CallRequest {
    const target = this.spec.targetField;
    if (change === 'target')
      return { ...request, [target]: this.otherTarget(request[target] as number) };
    if (this.spec.otherTargets?.includes(change))
      return withOtherTargetChanged(this.spec, request, change, this.rows, MISSING_ID);
    if (change === this.version) {
      // One ahead, unless that leaves the safe integers or an excluded class: then one behind.
      const v = request[change] as number;
      return { ...request, [change]: this.allows(change, v + 1) ? v + 1 : v - 1 };
    }
    const field = this.fields.find((f) => f.field.name === change);
    if (!field) return { ...request };
    const [a, b] = field.usual;
    return { ...request, [change]: request[change] === a ? b : a };
  }

  /** Steps the model over one step's `events`; `conflicts`: the group's, where generation asked. */
  private apply(events: readonly Event[], conflicts?: boolean): void {
    for (const event of events) {
      const t = this.walk.step(this.state, event);
      this.state = t.state;
      if (event.kind === 'call') {
        const k = this.clients[event.client];
        if (k) learn(k, event, t.outcome, this.state);
      }
    }
    this.walk.kept(conflicts);
  }

  call(
    client: number,
    request: CallRequest,
    delivery: Delivery,
    intent: CallEvent['intent'],
  ): CallEvent {
    return { kind: 'call', client, request, delivery, intent };
  }

  /** A fresh request id and arguments, mostly aimed at a row in the client's own workspace. */
  newRequest(
    client: number,
    target: number,
    values: Values,
    version: VersionChoice,
    idChoice: IdChoice = SIMPLE_ID,
    sharedWith?: number,
  ): CallRequest {
    const k = this.knowledge(client);
    const also = sharedWith === undefined ? undefined : this.knowledge(sharedWith);
    // Filled in place (the id first, then the arguments): this runs for every new request.
    const request: Record<string, unknown> = {
      requestId: freshId(k, idChoice, this.excluded, also),
    };
    return this.arguments(client, target, values, version, request) as CallRequest;
  }

  /**
   * A new intent's arguments, in the operation's field order: its target, the version the
   * client expects (versioned operations only), and `values`, a field missing there at its
   * usual value. Set on `into` (a request begun with its id) and returned.
   */
  arguments(
    client: number,
    target: number,
    values: Values,
    version: VersionChoice,
    into: Record<string, unknown> = {},
  ): Omit<CallRequest, 'requestId'> {
    const id = this.clientTarget(client, target);
    const seen = this.knowledge(client).lastSeen.get(id) ?? 1;
    const expectedVersion =
      version === 'known' ? seen : version === 'ahead' ? seen + 1 : Math.max(1, seen - 1);
    // A loop, not closures: this runs for every new request. Set on `into`, after what it holds.
    const args = into;
    for (const { name } of this.spec.fields) {
      if (name === this.spec.targetField) args[name] = id;
      else if (name === this.version) args[name] = expectedVersion;
      else if (!(name in values)) args[name] = this.usualValue(name);
      // An optional field drawn as left out is absent from the request, not set to undefined.
      else if (values[name] !== undefined) args[name] = values[name];
    }
    if (this.spec.otherTargets) {
      const workspace = this.state.principals[client]?.workspace;
      fillOtherTargets(
        this.spec,
        args,
        values,
        ownRowIds(this.state.rows.values(), workspace),
        this.anyIds,
      );
    }
    return args;
  }

  /** The first usual value of value field `name`. */
  private usualValue(name: string): FieldValue | undefined {
    for (const f of this.fields) if (f.field.name === name) return f.usual[0];
    return undefined;
  }

  /** A request the client sent before: a pending one if any, else any it sent. */
  private previous(client: number, pick: number): CallRequest | undefined {
    const k = this.knowledge(client);
    const pool = k.pending.length > 0 ? k.pending : k.sent;
    return pool[pick % Math.max(1, pool.length)];
  }

  private clientTarget(client: number, target: number): number {
    if (target < 7) {
      const workspace = this.state.principals[client]?.workspace;
      const own: number[] = [];
      for (const row of this.state.rows.values()) if (row.workspace === workspace) own.push(row.id);
      if (own.length > 0) return own[target % own.length] as number;
    }
    return this.anyTarget(target);
  }

  /** The next client after `a` (wrapping round) whose principal is in no excluded class. */
  otherClient(a: number): number {
    const allowed = this.clientsAllowed;
    return allowed.find((c) => c > a) ?? allowed.find((c) => c !== a) ?? a;
  }

  private anyTarget(target: number): number {
    return this.anyIds[target % this.anyIds.length] as number;
  }

  private otherTarget(id: number): number {
    const ids = this.rows.map((a) => a.id).filter((x) => x !== id);
    return ids[0] ?? MISSING_ID;
  }

  private workspace(index: number): string {
    return this.fixture.workspaces[index % this.fixture.workspaces.length] as string;
  }

  otherWorkspace(id: number): string {
    const current = this.state.rows.get(id)?.workspace;
    return this.fixture.workspaces.find((w) => w !== current) ?? this.workspace(0);
  }

  private knowledge(client: number): ClientKnowledge {
    const k = this.clients[client];
    if (!k) throw new RangeError(`no client ${client}`);
    return k;
  }
}
