/**
 * Sequential mode: runs one sequence in this thread on one fresh database, event after event
 * (a concurrent group runs in lane order), and records a `Trace`. Fast and deterministic; the
 * race-finding modes live beside it.
 */

import type { HandlerPlugin } from '../handlers/plugin.ts';
import type { Step } from '../model/events.ts';
import { flatten } from '../model/flatten.ts';
import { checkSnapshotShape } from '../model/outcome-shape.ts';
import { type Fixture, type Principal, withWriteScope } from '../model/world.ts';
import type { Observation, Trace } from '../types/trace.ts';
import { applyCall, applyWorldEvent } from './apply-event.ts';
import { openMemoryCopy, rollbackLeaked } from './databases.ts';

/**
 * Runs `steps` against `plugin` on a fresh copy of the template `image` (`templateImage`). The
 * copy is an in-memory database deserialised from those bytes: one connection cannot tell it
 * from a file copy, and it costs about a tenth of a millisecond instead of a file copy, an open,
 * the WAL set-up, a close and three unlinks. Concurrent and scheduled modes, whose connections
 * must share a database, keep files.
 */
export async function runSequential(
  plugin: HandlerPlugin,
  image: Buffer,
  fixture: Fixture,
  steps: readonly Step[],
): Promise<Trace> {
  const db = openMemoryCopy(image);
  try {
    let principals: readonly Principal[] = fixture.principals;
    const observations: Observation[] = [];
    for (const { event, step, lane } of flatten(steps)) {
      if (event.kind === 'call') {
        const principal = principals[event.client];
        if (!principal)
          throw new RangeError(`step ${step + 1}: no principal for client ${event.client}`);
        observations.push({
          step,
          lane,
          event,
          observed: await applyCall(plugin, db, principal, event),
        });
      } else if (event.kind === 'revoke' || event.kind === 'restore') {
        principals = withWriteScope(principals, event.client, event.kind === 'restore');
      } else {
        // A handler that left a transaction open must not swallow the world event into it.
        rollbackLeaked(db);
        applyWorldEvent(plugin, db, event);
      }
    }
    rollbackLeaked(db);
    return { observations, snapshot: checkSnapshotShape(plugin.snapshot(db), plugin.name) };
  } finally {
    db.close();
  }
}
