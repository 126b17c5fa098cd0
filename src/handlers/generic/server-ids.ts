/**
 * How a generic handler's server assigns the ids of the rows a call creates, from the largest
 * id so far and the number of rows: `next` is SQLite's rowid rule (one past the largest, what a
 * spec declaring `ids: 'rowid'` predicts); `gap` leaves gaps; `scrambled` follows no order the
 * model could guess. Each gives distinct ids to the rows that commit, as the contract asks of
 * server-assigned ids; a spec with opaque ids must hold for all three.
 */

/** A server's rule for new ids. */
export type ServerIds = 'next' | 'gap' | 'scrambled';

/** Every rule, for drawing and help texts. */
export const SERVER_IDS: readonly ServerIds[] = ['next', 'gap', 'scrambled'];

/** The id of the next created row, given the committed rows' largest id and count. */
export function nextServerId(rule: ServerIds, largest: number, count: number): number {
  switch (rule) {
    case 'next':
      return largest + 1;
    case 'gap':
      return largest + 7;
    case 'scrambled':
      // 100003 is prime, so the first 100002 ids are distinct; all lie above any fixture's ids.
      return 1_000_000 + (((count + 1) * 7919) % 100_003);
  }
}
