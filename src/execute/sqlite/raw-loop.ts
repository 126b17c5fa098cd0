/**
 * The ceiling the bench measures the harness against: the handler's own calls and world events
 * replayed in a tight loop in this thread on one warm connection, with none of the harness around
 * them (no generation, no model, no checks, no trace, no fresh database). Between sequences the
 * database is reset to the template outside the timed part, so each sequence takes the same code
 * paths in the handler as it does under the harness.
 */

import type { Connection, HandlerPlugin } from '../../handlers/plugin.ts';
import { pluginOperation } from '../../handlers/plugin.ts';
import { type Event, unsentOutcome } from '../../model/events.ts';
import { afterScopeChange, type Principal } from '../../model/world.ts';
import { applyWorldEvent } from '../apply-world-event.ts';
import type { RawMeasure } from '../raw-measure.ts';
import { interruptPoint } from '../runtime/interrupt.ts';
import { rollbackLeaked } from './databases.ts';
import type { ResetToTemplate } from './reset-to-template.ts';

/**
 * Replays `sequences` against `plugin` on `db`, resetting it with `reset` before each.
 * Every event counts as a step, lost requests included (the harness counts them too), so steps
 * per second compare one to one with `checkHandler`'s. A call that throws costs what it costs.
 */
export async function measureRaw(
  plugin: HandlerPlugin,
  db: Connection,
  reset: ResetToTemplate,
  principals: readonly Principal[],
  sequences: readonly (readonly Event[])[],
): Promise<RawMeasure> {
  let steps = 0;
  let ms = 0;
  let cpuMicros = 0;
  for (const events of sequences) {
    // A loop of sync calls never lets the event loop turn: give Ctrl-C its chance between sequences.
    await interruptPoint('while measuring the raw loop');
    reset(db);
    const cpu = process.cpuUsage();
    const started = performance.now();
    await replay(plugin, db, principals, events);
    ms += performance.now() - started;
    const used = process.cpuUsage(cpu);
    cpuMicros += used.user + used.system;
    steps += events.length;
  }
  return { steps, seconds: ms / 1000, cpuSeconds: cpuMicros / 1e6 };
}

async function replay(
  plugin: HandlerPlugin,
  db: Connection,
  initial: readonly Principal[],
  events: readonly Event[],
): Promise<void> {
  let principals = initial;
  for (const event of events) {
    if (event.kind === 'call') {
      if (unsentOutcome(event)) continue;
      const principal = principals[event.client] as Principal;
      try {
        const returned = plugin.call(db, principal, event.request);
        if (returned instanceof Promise) await returned;
      } catch {
        // A mutant may throw; the harness records that, the ceiling only pays for it.
      }
    } else if (event.kind === 'revoke' || event.kind === 'restore') {
      principals = afterScopeChange(principals, event, pluginOperation(plugin).scope);
    } else {
      rollbackLeaked(db);
      applyWorldEvent(plugin, db, event);
    }
  }
}
