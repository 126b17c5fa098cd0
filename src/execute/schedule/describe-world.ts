/** A world event as the lanes view shows it, on either engine. Pure. */
import type { CallEvent, Event } from '../../model/events.ts';

/** A world event in a few words, for the lanes view; `noun` names a target row (`automation`). */
export function describeWorld(event: Exclude<Event, CallEvent>, noun = 'automation'): string {
  switch (event.kind) {
    case 'move':
    case 'recreate':
      return `${event.kind} ${noun} ${event.resourceId} to ${event.workspace}`;
    case 'delete':
      return `delete ${noun} ${event.resourceId}`;
    case 'storeFail':
      return 'receipt store starts failing';
    case 'storeRestore':
      return 'receipt store restored';
    case 'clockAdvance':
      return `clock advances ${event.ms} ms`;
    default:
      return `${event.kind} client ${event.client + 1}`;
  }
}
