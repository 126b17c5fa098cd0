/**
 * Hand-written histories in pass/fail pairs for the built-in operations beyond `set-interval`,
 * each over its operation's own fixture (customers 1 and 2 in team-a and 20 in team-b, no
 * invoices; accounts 1, 2 and 20 likewise, each with a balance of 1000). Principals as in
 * `fixture-builders.ts`: 0 is alice in team-a, 1 is bob in team-a.
 *
 * Server-assigned ids and balances are what make these histories decidable: the id a create
 * returns, or the balance an adjustment reports, reveals where it took effect.
 */
import type { CallRequest } from '../../src/model/events.ts';
import type { OperationSpec } from '../../src/model/operation.ts';
import { adjustBalance } from '../../src/model/operations/adjust-balance.ts';
import { createOnce } from '../../src/model/operations/create-once.ts';
import { type Observed, outcome } from '../../src/model/outcome.ts';
import type { Fixture } from '../../src/model/world.ts';
import { call, keyReuse, unavailable, world } from './fixture-builders.ts';
import type { OkFixture } from './fixture-pairs.ts';

/**
 * A named history the checker must reject, and the entries that could be reported stuck: when
 * two concurrent calls contradict each other, either may be the one the search could not place.
 */
export interface OperationBadFixture extends OkFixture {
  readonly stuckAnyOf: readonly number[];
}

/** A pair over one operation: the histories to accept, and the one to reject. */
export interface OperationFixturePair {
  readonly ok: readonly OkFixture[];
  readonly bad: OperationBadFixture;
}

/** An operation, the fixture its histories start from, and its pairs. */
export interface OperationFixtures {
  readonly spec: OperationSpec;
  readonly fixture: Fixture;
  readonly pairs: readonly OperationFixturePair[];
}

/** A `create_invoice.v1` request. */
const invoiceFor = (requestId: string, customerId: number, amount: number): CallRequest => ({
  requestId,
  customerId,
  amount,
});
/** A fresh create of invoice `invoiceId`, and a replay of it. */
const created = (invoiceId: number, customerId: number, amount: number): Observed =>
  outcome.fresh({ invoiceId, customerId, amount });
const recreated = (invoiceId: number, customerId: number, amount: number): Observed =>
  outcome.replayed({ invoiceId, customerId, amount });

const a1 = invoiceFor('r1', 1, 500);
const a2 = invoiceFor('r2', 2, 700);
const a3 = invoiceFor('r3', 1, 900);

const CREATE_ONCE_PAIRS: readonly OperationFixturePair[] = [
  {
    ok: [
      {
        name: 'co01-ok overlapping creates: the ids say the second committed first',
        history: [
          call(0, 0, [0, 10], a1, created(2, 1, 500)),
          call(1, 1, [1, 11], a2, created(1, 2, 700)),
        ],
      },
      {
        name: 'co01-ok overlapping creates: the ids say the first committed first',
        history: [
          call(0, 0, [0, 10], a1, created(1, 1, 500)),
          call(1, 1, [1, 11], a2, created(2, 2, 700)),
        ],
      },
    ],
    bad: {
      name: 'co01-bad two fresh creates return the same invoice id',
      history: [
        call(0, 0, [0, 10], a1, created(1, 1, 500)),
        call(1, 1, [1, 11], a2, created(1, 2, 700)),
      ],
      stuckAnyOf: [0, 1],
    },
  },
  {
    ok: [
      {
        name: 'co02-ok a lost-response create that a later id shows committed; its retry replays',
        history: [
          call(0, 0, [0], a1),
          call(1, 1, [5, 6], a2, created(2, 2, 700)),
          call(2, 0, [10, 11], a1, recreated(1, 1, 500)),
        ],
      },
      {
        name: 'co02-ok a lost create that never committed: the later id is 1, the retry fresh',
        history: [
          call(0, 0, [0], a1),
          call(1, 1, [5, 6], a2, created(1, 2, 700)),
          call(2, 0, [10, 11], a1, created(2, 1, 500)),
        ],
      },
    ],
    bad: {
      name: 'co02-bad the later id shows the lost create committed, yet its retry creates again',
      history: [
        call(0, 0, [0], a1),
        call(1, 1, [5, 6], a2, created(2, 2, 700)),
        call(2, 0, [10, 11], a1, created(3, 1, 500)),
      ],
      stuckAnyOf: [2],
    },
  },
  {
    ok: [
      {
        name: 'co03-ok a replay after another invoice returns its own invoice id',
        history: [
          call(0, 0, [0, 1], a1, created(1, 1, 500)),
          call(1, 0, [2, 3], a3, created(2, 1, 900)),
          call(2, 0, [4, 5], a1, recreated(1, 1, 500)),
        ],
      },
    ],
    bad: {
      name: "co03-bad a replay returns the customer's latest invoice id",
      history: [
        call(0, 0, [0, 1], a1, created(1, 1, 500)),
        call(1, 0, [2, 3], a3, created(2, 1, 900)),
        call(2, 0, [4, 5], a1, recreated(2, 1, 500)),
      ],
      stuckAnyOf: [2],
    },
  },
  {
    ok: [
      {
        name: 'co04-ok simultaneous identical creates: one fresh, one replay of the same id',
        history: [
          call(0, 0, [0, 10], a1, created(1, 1, 500)),
          call(1, 0, [1, 11], a1, recreated(1, 1, 500)),
        ],
      },
    ],
    bad: {
      name: 'co04-bad a fresh create under a key whose receipt already existed',
      history: [
        call(0, 0, [0, 1], a1, created(1, 1, 500)),
        call(1, 0, [2, 3], a1, created(2, 1, 500)),
      ],
      stuckAnyOf: [1],
    },
  },
  {
    ok: [
      {
        name: 'co05-ok mismatched duplicates: one creates, the other is key reuse',
        history: [
          call(0, 0, [0, 10], a1, keyReuse),
          call(1, 0, [1, 11], invoiceFor('r1', 1, 600), created(1, 1, 600)),
        ],
      },
      {
        name: 'co05-ok a move racing a retry: the retry first',
        history: [
          call(0, 0, [0, 1], a1, created(1, 1, 500)),
          world(1, [2, 10], { kind: 'move', resourceId: 1, workspace: 'team-b' }),
          call(2, 0, [3, 11], a1, recreated(1, 1, 500)),
        ],
      },
    ],
    bad: {
      name: 'co05-bad a retry after its customer moved away replays',
      history: [
        call(0, 0, [0, 1], a1, created(1, 1, 500)),
        world(1, [2, 3], { kind: 'move', resourceId: 1, workspace: 'team-b' }),
        call(2, 0, [4, 5], a1, recreated(1, 1, 500)),
      ],
      stuckAnyOf: [2],
    },
  },
];

/** An `adjust_balance.v1` request. */
const adjust = (requestId: string, accountId: number, delta: number): CallRequest => ({
  requestId,
  accountId,
  delta,
});
/** A fresh adjustment that left `balance`, and a replay of it. */
const applied = (accountId: number, balance: number): Observed =>
  outcome.fresh({ accountId, balance });
const reapplied = (accountId: number, balance: number): Observed =>
  outcome.replayed({ accountId, balance });
const insufficient: Observed = outcome.refused('insufficient');

const d300 = adjust('r1', 1, -300);
const d200 = adjust('r2', 1, -200);

const ADJUST_BALANCE_PAIRS: readonly OperationFixturePair[] = [
  {
    ok: [
      {
        name: 'ab01-ok concurrent debits: only "the second first" explains the balances',
        history: [
          call(0, 0, [0, 10], d300, applied(1, 500)),
          call(1, 1, [1, 11], d200, applied(1, 800)),
        ],
      },
    ],
    bad: {
      name: 'ab01-bad concurrent debits that both read 1000: a lost update no order explains',
      history: [
        call(0, 0, [0, 10], d300, applied(1, 700)),
        call(1, 1, [1, 11], d200, applied(1, 800)),
      ],
      stuckAnyOf: [0, 1],
    },
  },
  {
    ok: [
      {
        name: 'ab02-ok a lost-response debit that a later balance shows applied; its retry replays',
        history: [
          call(0, 0, [0], d300),
          call(1, 1, [5, 6], adjust('r2', 1, 100), applied(1, 800)),
          call(2, 0, [10, 11], d300, reapplied(1, 700)),
        ],
      },
    ],
    bad: {
      name: 'ab02-bad the later balance shows the lost debit applied, yet its retry applies it again',
      history: [
        call(0, 0, [0], d300),
        call(1, 1, [5, 6], adjust('r2', 1, 100), applied(1, 800)),
        call(2, 0, [10, 11], d300, applied(1, 500)),
      ],
      stuckAnyOf: [2],
    },
  },
  {
    ok: [
      {
        name: 'ab03-ok a replay after another adjustment returns its own balance',
        history: [
          call(0, 0, [0, 1], d300, applied(1, 700)),
          call(1, 0, [2, 3], adjust('r3', 1, 200), applied(1, 900)),
          call(2, 0, [4, 5], d300, reapplied(1, 700)),
        ],
      },
    ],
    bad: {
      name: 'ab03-bad a replay returns the current balance',
      history: [
        call(0, 0, [0, 1], d300, applied(1, 700)),
        call(1, 0, [2, 3], adjust('r3', 1, 200), applied(1, 900)),
        call(2, 0, [4, 5], d300, reapplied(1, 900)),
      ],
      stuckAnyOf: [2],
    },
  },
  {
    ok: [
      {
        name: 'ab04-ok a retry of a debit that emptied the account replays (receipt before precondition)',
        history: [
          call(0, 0, [0], adjust('r1', 1, -1000)),
          call(1, 1, [3, 4], adjust('r2', 1, -1), insufficient),
          call(2, 0, [5, 6], adjust('r1', 1, -1000), reapplied(1, 0)),
        ],
      },
      {
        name: 'ab04-ok overlapping debits that cannot both fit: one applies, one is insufficient',
        history: [
          call(0, 0, [0, 10], adjust('r1', 1, -600), insufficient),
          call(1, 1, [1, 11], adjust('r2', 1, -600), applied(1, 400)),
        ],
      },
    ],
    bad: {
      name: 'ab04-bad the same retry refused insufficient although its debit applied',
      history: [
        call(0, 0, [0], adjust('r1', 1, -1000)),
        call(1, 1, [3, 4], adjust('r2', 1, -1), insufficient),
        call(2, 0, [5, 6], adjust('r1', 1, -1000), insufficient),
      ],
      stuckAnyOf: [2],
    },
  },
  {
    ok: [
      {
        name: 'ab05-ok a retry after the first call completed replays',
        history: [
          call(0, 0, [0, 1], d300, applied(1, 700)),
          call(1, 0, [2, 3], d300, reapplied(1, 700)),
        ],
      },
      {
        name: 'ab05-ok the same request id on another account is key reuse',
        history: [
          call(0, 0, [0, 1], d300, applied(1, 700)),
          call(1, 0, [2, 3], adjust('r1', 2, -300), keyReuse),
          call(2, 0, [4, 5], adjust('r9', 20, -300), unavailable),
        ],
      },
    ],
    bad: {
      name: 'ab05-bad a fresh debit under a key whose receipt already existed',
      history: [
        call(0, 0, [0, 1], d300, applied(1, 700)),
        call(1, 0, [2, 3], d300, applied(1, 400)),
      ],
      stuckAnyOf: [1],
    },
  },
];

/** The operations and their pairs. */
export const OPERATION_FIXTURES: readonly OperationFixtures[] = [
  {
    spec: createOnce,
    fixture: { ...createOnce.fixture, operation: createOnce.name },
    pairs: CREATE_ONCE_PAIRS,
  },
  {
    spec: adjustBalance,
    fixture: { ...adjustBalance.fixture, operation: adjustBalance.name },
    pairs: ADJUST_BALANCE_PAIRS,
  },
];
