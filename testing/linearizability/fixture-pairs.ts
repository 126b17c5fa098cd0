/**
 * Hand-written histories in pass/fail pairs, porcupine style (`c01-ok` / `c01-bad`): each pair
 * differs in one outcome or one interval, and the bad one names the entry that must be reported
 * stuck. Over `DEFAULT_FIXTURE` (see `fixture-builders.ts`).
 */
import type { History } from '../../src/model/history.ts';
import {
  call,
  conflict,
  forbidden,
  fresh,
  keyReuse,
  notSent,
  replayed,
  request,
  storeError,
  unavailable,
  world,
} from './fixture-builders.ts';

/** A named history the checker must accept. */
export interface OkFixture {
  readonly name: string;
  readonly history: History;
}

/** A named history the checker must reject, and an entry that must be among the stuck. */
export interface BadFixture extends OkFixture {
  readonly stuck: number;
}

/** A pair: the histories to accept, and the one to reject. */
export interface FixturePair {
  readonly ok: readonly OkFixture[];
  readonly bad: BadFixture;
}

const r1 = request('r1', 1, 1, 30);
const r1Changed = request('r1', 1, 1, 45);
const r2 = request('r2', 1, 1, 60);

/** The pairs. */
export const FIXTURE_PAIRS: readonly FixturePair[] = [
  {
    ok: [
      {
        name: 'c01-ok identical duplicates: one fresh, one replay',
        history: [
          call(0, 0, [0, 10], r1, fresh(1, 30, 2)),
          call(1, 0, [1, 11], r1, replayed(1, 30, 2)),
        ],
      },
    ],
    bad: {
      name: 'c01-bad identical duplicates: two fresh',
      history: [call(0, 0, [0, 10], r1, fresh(1, 30, 2)), call(1, 0, [1, 11], r1, fresh(1, 30, 2))],
      stuck: 1,
    },
  },
  {
    ok: [
      {
        name: 'c02-ok mismatched duplicates: first wins',
        history: [
          call(0, 0, [0, 10], r1, fresh(1, 30, 2)),
          call(1, 0, [1, 11], r1Changed, keyReuse),
        ],
      },
      {
        name: 'c02-ok mismatched duplicates: second wins',
        history: [
          call(0, 0, [0, 10], r1, keyReuse),
          call(1, 0, [1, 11], r1Changed, fresh(1, 45, 2)),
        ],
      },
    ],
    bad: {
      name: 'c02-bad mismatched duplicates: two winners',
      history: [
        call(0, 0, [0, 10], r1, fresh(1, 30, 2)),
        call(1, 0, [1, 11], r1Changed, fresh(1, 45, 2)),
      ],
      stuck: 1,
    },
  },
  {
    ok: [
      {
        name: 'c03-ok lost response that committed: the retry replays',
        history: [call(0, 0, [0], r1), call(1, 0, [5, 6], r1, replayed(1, 30, 2))],
      },
      {
        name: 'c03-ok lost response that crashed: the retry is fresh',
        history: [call(0, 0, [0], r1), call(1, 0, [5, 6], r1, fresh(1, 30, 2))],
      },
    ],
    bad: {
      name: 'c03-bad the lost call both happened (a later key conflicts) and did not (its retry is fresh)',
      history: [
        call(0, 0, [0], r1),
        call(1, 1, [5, 6], r2, conflict),
        call(2, 0, [10, 11], r1, fresh(1, 30, 2)),
      ],
      stuck: 2,
    },
  },
  {
    ok: [
      {
        name: 'c04-ok a read of the old version while the write is in flight',
        history: [
          call(0, 0, [0, 10], r1, fresh(1, 30, 2)),
          call(1, 1, [5, 15], request('r2', 1, 2, 60), conflict),
        ],
      },
    ],
    bad: {
      name: 'c04-bad a stale read: the old version after the write completed',
      history: [
        call(0, 0, [0, 3], r1, fresh(1, 30, 2)),
        call(1, 1, [5, 15], request('r2', 1, 2, 60), conflict),
      ],
      stuck: 1,
    },
  },
  {
    ok: [
      {
        name: 'c05-ok a move racing a call: the move first',
        history: [
          world(0, [0, 10], { kind: 'move', resourceId: 1, workspace: 'team-b' }),
          call(1, 0, [5, 15], r1, unavailable),
        ],
      },
      {
        name: 'c05-ok a move racing a call: the call first',
        history: [
          world(0, [0, 10], { kind: 'move', resourceId: 1, workspace: 'team-b' }),
          call(1, 0, [5, 15], r1, fresh(1, 30, 2)),
        ],
      },
    ],
    bad: {
      name: 'c05-bad a call after the move completed still writes',
      history: [
        world(0, [0, 3], { kind: 'move', resourceId: 1, workspace: 'team-b' }),
        call(1, 0, [5, 15], r1, fresh(1, 30, 2)),
      ],
      stuck: 1,
    },
  },
  {
    ok: [
      {
        name: 'c06-ok a revoke racing a replay: forbidden',
        history: [
          call(0, 0, [0, 2], r1, fresh(1, 30, 2)),
          world(1, [3, 10], { kind: 'revoke', client: 0 }),
          call(2, 0, [5, 15], r1, forbidden),
        ],
      },
      {
        name: 'c06-ok a revoke racing a replay: replayed',
        history: [
          call(0, 0, [0, 2], r1, fresh(1, 30, 2)),
          world(1, [3, 10], { kind: 'revoke', client: 0 }),
          call(2, 0, [5, 15], r1, replayed(1, 30, 2)),
        ],
      },
    ],
    bad: {
      name: 'c06-bad a replay after the revoke completed',
      history: [
        call(0, 0, [0, 2], r1, fresh(1, 30, 2)),
        world(1, [3, 4], { kind: 'revoke', client: 0 }),
        call(2, 0, [5, 15], r1, replayed(1, 30, 2)),
      ],
      stuck: 2,
    },
  },
  {
    ok: [
      {
        name: 'c07-ok a write racing a store failure gets an error',
        history: [
          world(0, [0, 10], { kind: 'storeFail' }),
          call(1, 0, [5, 15], r1, storeError),
          call(2, 1, [20, 25], r2, storeError),
        ],
      },
    ],
    bad: {
      name: 'c07-bad an error, then a write of the same intent after the failure is fresh',
      history: [
        world(0, [0, 10], { kind: 'storeFail' }),
        call(1, 0, [5, 15], r1, storeError),
        call(2, 1, [20, 25], r2, fresh(1, 60, 2)),
      ],
      stuck: 2,
    },
  },
  {
    ok: [
      {
        name: 'c08-ok a lost request changes nothing',
        history: [
          call(0, 0, [0, 1], r1, notSent, 'lostRequest'),
          call(1, 1, [2, 3], r2, fresh(1, 60, 2)),
        ],
      },
    ],
    bad: {
      name: 'c08-bad a lost request that wrote anyway',
      history: [
        call(0, 0, [0, 1], r1, notSent, 'lostRequest'),
        call(1, 1, [2, 3], request('r2', 1, 2, 60), fresh(1, 60, 3)),
      ],
      stuck: 1,
    },
  },
  {
    ok: [
      {
        name: 'c09-ok a lost write is needed by a call on another row under the same key',
        // Entry 1's outcome went unrecorded; entry 2 shows it wrote nothing, so it met entry 0's receipt.
        history: [
          call(0, 0, [0], request('r1', 1, 1, 30)),
          call(1, 0, [1, 2], request('r1', 2, 1, 30)),
          call(2, 0, [3, 4], request('r9', 2, 1, 60), fresh(2, 60, 2)),
        ],
      },
    ],
    bad: {
      name: 'c09-bad the same, with a version no order gives',
      history: [
        call(0, 0, [0], request('r1', 1, 1, 30)),
        call(1, 0, [1, 2], request('r1', 2, 1, 30)),
        call(2, 0, [3, 4], request('r9', 2, 1, 60), fresh(2, 60, 3)),
      ],
      stuck: 2,
    },
  },
  {
    ok: [
      {
        name: 'c10-ok a lost write too stale to land, until its row is re-created',
        history: [
          call(0, 1, [0, 1], request('r5', 1, 1, 30), fresh(1, 30, 2)),
          call(1, 0, [0.5], request('r1', 1, 1, 40)),
          call(2, 1, [0.6], request('r6', 1, 2, 50)),
          call(3, 1, [2, 3], request('r6', 1, 2, 50), replayed(1, 50, 3)),
          world(4, [4, 5], { kind: 'delete', resourceId: 1 }),
          world(5, [6, 7], { kind: 'recreate', resourceId: 1, workspace: 'team-a' }),
          call(6, 0, [10, 11], request('r1', 1, 1, 40), replayed(1, 40, 2)),
        ],
      },
    ],
    bad: {
      name: 'c10-bad the same, with a replay no order gives',
      history: [
        call(0, 1, [0, 1], request('r5', 1, 1, 30), fresh(1, 30, 2)),
        call(1, 0, [0.5], request('r1', 1, 1, 40)),
        call(2, 1, [0.6], request('r6', 1, 2, 50)),
        call(3, 1, [2, 3], request('r6', 1, 2, 50), replayed(1, 50, 3)),
        world(4, [4, 5], { kind: 'delete', resourceId: 1 }),
        world(5, [6, 7], { kind: 'recreate', resourceId: 1, workspace: 'team-a' }),
        call(6, 0, [10, 11], request('r1', 1, 1, 40), replayed(1, 40, 3)),
      ],
      stuck: 6,
    },
  },
  {
    ok: [
      {
        name: 'c11-ok two lost writes on different rows, both needed before the store fails',
        // Found by `run --mode concurrent --seed 45`: both lost writes must land before the
        // storeFail (after it they could not write), so they sit back to back in one order.
        history: [
          call(0, 0, [0], request('r1', 1, 1, 30)),
          call(1, 0, [0.1], request('r2', 2, 1, 30)),
          world(2, [1, 2], { kind: 'storeFail' }),
          call(3, 1, [3, 4], request('r3', 1, 1, 60), conflict),
          call(4, 1, [5, 6], request('r4', 2, 1, 60), conflict),
        ],
      },
    ],
    bad: {
      name: 'c11-bad the same, with a fresh write while the store fails',
      history: [
        call(0, 0, [0], request('r1', 1, 1, 30)),
        call(1, 0, [0.1], request('r2', 2, 1, 30)),
        world(2, [1, 2], { kind: 'storeFail' }),
        call(3, 1, [3, 4], request('r3', 1, 2, 60), fresh(1, 60, 3)),
        call(4, 1, [5, 6], request('r4', 2, 1, 60), conflict),
      ],
      stuck: 3,
    },
  },
];
