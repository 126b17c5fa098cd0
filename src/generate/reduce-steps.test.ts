/**
 * The last pass over a counterexample, against fake oracles: steps that do not matter go with
 * their schedule entries; a concurrent group is split into plain steps, or loses a member, when
 * what is left still fails, and its crash and fault follow the lanes they named; a group the
 * failure needs as a race stays whole. Nothing runs a handler here.
 */
import { describe, expect, it } from 'vitest';
import type { CallEvent, Step } from '../model/events.ts';
import type { StepSchedule } from '../types/schedule.ts';
import { type ReducibleCase, reduceSteps, simplerGroups } from './reduce-steps.ts';

const call = (requestId: string): CallEvent => ({
  kind: 'call',
  client: 0,
  delivery: 'delivered',
  request: { requestId, automationId: 1, expectedVersion: 1, intervalMinutes: 30 },
});
const group = (...requestIds: string[]): Step => ({
  kind: 'concurrent',
  events: requestIds.map(call),
});
/** A case's shape: a plain call by its id, a group as the list of its members' ids. */
const shape = (steps: readonly Step[]) =>
  steps.map((s) =>
    s.kind === 'concurrent'
      ? s.events.map((e) => (e.kind === 'call' ? String(e.request.requestId) : e.kind))
      : s.kind === 'call'
        ? String(s.request.requestId)
        : s.kind,
  );
/** Every call of a case, in order, groups flattened in lane order. */
const callIds = (steps: readonly Step[]) => shape(steps).flat();
/** Whether some step of `k` is a group holding both `a` and `b`: a race between them. */
const races = (k: ReducibleCase, a: string, b: string) =>
  shape(k.steps).some((s) => Array.isArray(s) && s.includes(a) && s.includes(b));

describe('reduceSteps', () => {
  const steps = ['a', 'b', 'c', 'd', 'e'].map(call);
  const schedule = steps.map((_, i) => ({ choices: [i] }));
  // Fails while both b and d are left: the steps that matter.
  const needsBD = async (k: ReducibleCase) =>
    ['b', 'd'].every((id) => callIds(k.steps).includes(id));

  it('removes every step that does not matter, each with its schedule entry', async () => {
    const r = await reduceSteps({ steps, schedule }, needsBD);
    expect(shape(r.case.steps)).toEqual(['b', 'd']);
    expect(r.case.schedule).toEqual([{ choices: [1] }, { choices: [3] }]);
    expect(r).toMatchObject({ removed: 3, simplified: 0, cut: false });
  });
  it('keeps a case whose every step matters', async () => {
    const all = async (k: ReducibleCase) => k.steps.length === steps.length;
    const r = await reduceSteps({ steps, schedule }, all);
    expect(r).toMatchObject({ removed: 0, simplified: 0, cut: false, runs: steps.length });
  });
  it('stops at its bound on oracle runs and says so', async () => {
    const r = await reduceSteps({ steps, schedule }, needsBD, 2);
    expect(r).toMatchObject({ runs: 2, cut: true });
  });

  it('splits a group whose calls need not race into plain steps, then removes what does not matter', async () => {
    // A call and its retry drawn as a group, as a sequential counterexample kept them; then
    // another step. The failure needs only a then c, in that order.
    const c = { steps: [group('a', 'b'), call('c')], schedule: [] };
    const needsAC = async (k: ReducibleCase) =>
      callIds(k.steps).includes('a') && callIds(k.steps).at(-1) === 'c';
    const r = await reduceSteps(c, needsAC);
    expect(shape(r.case.steps)).toEqual(['a', 'c']);
    expect(r.case.schedule).toEqual([]);
    expect(r.simplified).toBeGreaterThan(0);
  });

  it('leaves a group of two alone when the failure needs them to race', async () => {
    const c = {
      steps: [call('x'), group('a', 'b')],
      schedule: [{ choices: [] }, { choices: [0, 1] }],
    };
    const r = await reduceSteps(c, async (k) => races(k, 'a', 'b'));
    expect(shape(r.case.steps)).toEqual([['a', 'b']]);
    expect(r.case.schedule).toEqual([{ choices: [0, 1] }]);
    expect(r).toMatchObject({ removed: 1, simplified: 0, cut: false });
  });

  it('drops the member of a group the race does not need, keeping the switches', async () => {
    const c = { steps: [group('a', 'b', 'c')], schedule: [{ choices: [2, 1] }] };
    const r = await reduceSteps(c, async (k) => races(k, 'a', 'c'));
    expect(shape(r.case.steps)).toEqual([['a', 'c']]);
    expect(r.case.schedule).toEqual([{ choices: [2, 1] }]);
    expect(r.simplified).toBe(1);
  });
});

describe('simplerGroups', () => {
  const crashOn = (lane: number): StepSchedule => ({
    choices: [1],
    crash: { lane, at: 3 },
    fault: { lane: 1, at: 1 },
  });
  const c = (entry: StepSchedule): ReducibleCase => ({
    steps: [call('x'), group('a', 'b', 'c')],
    schedule: [entry, entry],
  });

  it('offers the split first, then each member left out, the last first', () => {
    const forms = simplerGroups(c(crashOn(0)), 1);
    expect(forms.map((f) => shape(f.steps))).toEqual([
      ['x', 'a', 'b', 'c'],
      ['x', ['a', 'b']],
      ['x', ['a', 'c']],
      ['x', ['b', 'c']],
    ]);
  });

  it('gives each split member its lane’s crash and fault on lane 0, and no switches', () => {
    const [split] = simplerGroups(c(crashOn(0)), 1);
    expect(split?.schedule).toEqual([
      crashOn(0),
      { choices: [], crash: { lane: 0, at: 3 } },
      { choices: [], fault: { lane: 0, at: 1 } },
      { choices: [] },
    ]);
  });

  it('renumbers the lanes after a left-out member, dropping its crash or fault (lanes taken modulo)', () => {
    // The crash names lane 5, which is lane 2 (c) of three.
    const [, withoutC, withoutB] = simplerGroups(c(crashOn(5)), 1);
    expect(withoutC?.schedule[1]).toEqual({ choices: [1], fault: { lane: 1, at: 1 } });
    expect(withoutB?.schedule[1]).toEqual({ choices: [1], crash: { lane: 1, at: 3 } });
  });

  it('turns a group of two into the other member’s plain step, with that lane’s crash', () => {
    const pair = {
      steps: [group('a', 'b')],
      schedule: [{ choices: [1], crash: { lane: 1, at: 2 } }],
    };
    const [, withoutB, withoutA] = simplerGroups(pair, 0);
    expect(shape(withoutB?.steps ?? [])).toEqual(['a']);
    expect(withoutB?.schedule).toEqual([{ choices: [] }]);
    expect(shape(withoutA?.steps ?? [])).toEqual(['b']);
    expect(withoutA?.schedule).toEqual([{ choices: [], crash: { lane: 0, at: 2 } }]);
  });

  it('pads a shorter schedule with run-to-completion entries, and leaves sequential cases unscheduled', () => {
    const short = { steps: [call('x'), group('a', 'b')], schedule: [{ choices: [1] }] };
    expect(simplerGroups(short, 1)[0]?.schedule).toEqual([
      { choices: [1] },
      { choices: [] },
      { choices: [] },
    ]);
    expect(shape(simplerGroups({ steps: [group('a')], schedule: [] }, 0)[0]?.steps ?? [])).toEqual([
      'a',
    ]);
    expect(simplerGroups({ steps: [group('a')], schedule: [] }, 0)).toHaveLength(1);
    const unscheduled = { steps: [group('a', 'b')], schedule: [] };
    expect(simplerGroups(unscheduled, 0).every((f) => f.schedule.length === 0)).toBe(true);
    expect(simplerGroups(unscheduled, 5)).toEqual([]);
  });
});
