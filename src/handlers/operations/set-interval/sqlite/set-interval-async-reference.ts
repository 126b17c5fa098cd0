/**
 * The SQLite reference with one `await` before it answers: the shape of every handler users write
 * against a framework or a driver, on the reference's own statements. `bench` measures it beside
 * raw so the cost the harness adds to an awaiting call is a figure, not a guess. Replayable: its
 * call depends only on its arguments and the database, as the reference's, and its one `await`
 * settles on the microtask queue, which an inline lane runs on the spot, so scheduled mode replays
 * it on the coordinator's thread like the reference.
 */
import { defineHandler } from '../../../plugin.ts';
import reference from './set-interval-reference.ts';

export default defineHandler({
  ...reference,
  name: 'async-reference',
  description: 'The reference, awaiting once before it answers.',
  replayable: true,
  async call(db, principal, request) {
    await Promise.resolve();
    return reference.call(db, principal, request);
  },
});
