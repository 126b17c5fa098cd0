/**
 * The SQLite reference with one `await` before it answers: the shape of every handler users write
 * against a framework or a driver, on the reference's own statements. `bench` measures it beside
 * raw so the cost the harness adds to an awaiting call is a figure, not a guess. Not replayable:
 * an inline lane cannot replay a call that waits.
 */
import { defineHandler } from '../../../plugin.ts';
import reference from './set-interval-reference.ts';

export default defineHandler({
  ...reference,
  name: 'async-reference',
  description: 'The reference, awaiting once before it answers.',
  replayable: false,
  async call(db, principal, request) {
    await Promise.resolve();
    return reference.call(db, principal, request);
  },
});
