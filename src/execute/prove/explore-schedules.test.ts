import { describe, expect, it } from 'vitest';
import { exploreSchedules } from './explore-schedules.ts';
import { runToy, type ToyOp, toyProgram } from './fixtures/toy-lanes.ts';

const lostUpdate: ToyOp[][] = [
  [
    { kind: 'read', v: 0 },
    { kind: 'write', v: 0 },
  ],
  [
    { kind: 'read', v: 0 },
    { kind: 'write', v: 0 },
  ],
];

describe('exploreSchedules', () => {
  it('finds a lost update that needs one preemption only when the bound allows one', async () => {
    const lost = (o: string) => o.endsWith('/1,0,0');
    const run = (k: number) =>
      exploreSchedules(async (s) => runToy(lostUpdate, s, lost), {
        preemptions: k,
        reduce: true,
        engine: 'sqlite',
      });
    const none = await run(0);
    expect(none.failure).toBeUndefined();
    expect(none.complete).toBe(true);
    expect(none.beyondBound).toBeGreaterThan(0);
    const two = await run(2);
    expect(two.failure?.preemptions).toBe(1);
    // The saved schedule fails again when run on its own: it is the replayable counterexample.
    const again = runToy(lostUpdate, two.failure?.schedule ?? [], lost);
    expect(again.failed).toBe(true);
  });

  it('runs every interleaving once when nothing commutes and the bound is high', async () => {
    const writes: ToyOp[][] = [
      [
        { kind: 'write', v: 0 },
        { kind: 'write', v: 1 },
      ],
      [
        { kind: 'write', v: 1 },
        { kind: 'write', v: 0 },
      ],
    ];
    const seen = new Set<string>();
    const e = await exploreSchedules(
      async (s) => {
        const r = runToy(writes, s, () => false);
        seen.add(r.traceHash);
        return r;
      },
      { preemptions: 10, reduce: true, engine: 'sqlite' },
    );
    // Two lanes of two operations: 4!/(2!2!) = 6 interleavings, each run exactly once.
    expect(e.runs).toBe(6);
    expect(seen.size).toBe(6);
    expect(e.pruned).toBe(0);
    expect(e.duplicates).toBe(0);
  });

  it('prunes reads that commute, and reaches every outcome the unreduced search reaches', async () => {
    let prunedSomewhere = 0;
    let oneOrderOnly = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const lanes = toyProgram(seed);
      for (const k of [0, 1, 2]) {
        const full = new Map<string, number>();
        const reduced = new Map<string, number>();
        for (const [reduce, into] of [
          [false, full],
          [true, reduced],
        ] as const) {
          const e = await exploreSchedules(async (s) => runToy(lanes, s, () => false), {
            preemptions: k,
            reduce,
            engine: 'sqlite',
          });
          if (reduce) prunedSomewhere += e.pruned;
          const all = new Set<string>();
          const runsOf = new Map<string, number>();
          await exploreSchedules(
            async (s) => {
              const r = runToy(lanes, s, () => false);
              all.add(r.outcome);
              runsOf.set(r.outcome, (runsOf.get(r.outcome) ?? 0) + 1);
              return r;
            },
            { preemptions: k, reduce, engine: 'sqlite' },
          );
          // Each outcome's fewest preemptions: judge every outcome a failure in turn.
          for (const outcome of all) {
            const found = await exploreSchedules(
              async (s) => runToy(lanes, s, (o) => o === outcome),
              { preemptions: k, reduce, engine: 'sqlite' },
            );
            into.set(outcome, found.failure?.preemptions ?? -1);
          }
          expect(e.complete).toBe(true);
          // Outcomes that a single schedule of the full search reaches: races of one order only.
          if (!reduce) for (const n of runsOf.values()) if (n === 1) oneOrderOnly++;
        }
        // Sound: every outcome (every bug) found without reduction is found with it, with the
        // same fewest preemptions; and reduction finds nothing the full search cannot reach.
        expect(reduced).toEqual(full);
      }
    }
    expect(prunedSomewhere).toBeGreaterThan(0);
    expect(oneOrderOnly).toBeGreaterThan(0);
  });

  it('counts pruned branches as runs saved', async () => {
    const reads: ToyOp[][] = [
      [
        { kind: 'read', v: 0 },
        { kind: 'read', v: 1 },
        { kind: 'read', v: 0 },
      ],
      [
        { kind: 'read', v: 1 },
        { kind: 'read', v: 0 },
      ],
    ];
    const search = (reduce: boolean) =>
      exploreSchedules(async (s) => runToy(reads, s, () => false), {
        preemptions: 10,
        reduce,
        engine: 'sqlite',
      });
    const full = await search(false);
    const reduced = await search(true);
    // Only reads: every schedule is equivalent to lane order, so one run covers them all.
    expect(full.runs).toBe(10); // 5!/(3!2!)
    expect(reduced.runs).toBeLessThan(full.runs);
    expect(reduced.pruned).toBeGreaterThan(0);
  });

  it('on PostgreSQL nothing commutes, so nothing is pruned', async () => {
    const e = await exploreSchedules(async (s) => runToy(toyProgram(3), s, () => false), {
      preemptions: 10,
      reduce: true,
      engine: 'postgres',
    });
    expect(e.pruned).toBe(0);
  });
});
