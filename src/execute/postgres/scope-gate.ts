/**
 * The principals' write scopes during a concurrent run on PostgreSQL, where lanes are async
 * tasks of one thread: the same rule as `concurrent/scope-table.ts` has for worker threads. A
 * call reads its principal's scope when invoked and keeps it until it returns; a revoke or
 * restore waits for that principal's calls in flight, keeps new ones out meanwhile, then flips
 * the bit. So a call racing a scope change saw the old scope or the new one for its whole
 * interval, which is what a serial order of atomic calls can explain.
 */
import type { Principal } from '../../model/world.ts';

/** One run's scopes, by client index. */
export class ScopeGate {
  private readonly granted: boolean[];
  private readonly inFlight = new Map<number, Set<Promise<unknown>>>();
  private readonly changing = new Map<number, Promise<void>>();

  constructor(principals: readonly Principal[], scope: string) {
    this.granted = principals.map((p) => p.scopes.includes(scope));
  }

  /** Runs `call` with `client`'s scope as it stands once no change of it is under way. */
  async call<T>(client: number, call: (granted: boolean) => Promise<T>): Promise<T> {
    for (let c = this.changing.get(client); c; c = this.changing.get(client)) await c;
    const running = call(this.granted[client] === true);
    const set = this.inFlight.get(client) ?? new Set<Promise<unknown>>();
    this.inFlight.set(client, set);
    set.add(running);
    try {
      return await running;
    } finally {
      set.delete(running);
    }
  }

  /** Grants or revokes `client`'s scope once its calls in flight have returned. */
  async change(client: number, granted: boolean): Promise<void> {
    for (let c = this.changing.get(client); c; c = this.changing.get(client)) await c;
    const flip = (async () => {
      await Promise.allSettled([...(this.inFlight.get(client) ?? [])]);
      this.granted[client] = granted;
    })();
    this.changing.set(client, flip);
    try {
      await flip;
    } finally {
      this.changing.delete(client);
    }
  }
}
