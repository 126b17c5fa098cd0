/**
 * Input class coverage: what counts as reached, that a default run reaches every class, that an
 * excluded class is not reached, and how the summary shows counts and warns about a class never
 * reached.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { principalClasses, requestClasses } from '../generate/input-classes.ts';
import { sequenceArbitrary } from '../generate/sequence-arbitrary.ts';
import type { CallEvent, CallRequest, Step } from '../model/events.ts';
import { flatten } from '../model/flatten.ts';
import type { OperationSpec } from '../model/operation.ts';
import { BUILT_IN_OPERATIONS, DEFAULT_OPERATION } from '../model/operations/index.ts';
import { setInterval as setIntervalSpec } from '../model/operations/set-interval.ts';
import type { FixtureWithPolicy } from '../model/state.ts';
import { isRequestId } from '../model/validate.ts';
import { afterScopeChange, DEFAULT_FIXTURE, type Principal } from '../model/world.ts';
import { INPUT_CLASSES, type InputClass, type InputCoverage } from '../types/input-coverage.ts';
import { formatInputCoverage } from './format-summary.ts';
import { countInputCoverage, emptyInputCoverage, unreachedInputClasses } from './input-coverage.ts';

const ok: CallRequest = {
  requestId: 'r0',
  automationId: 1,
  expectedVersion: 1,
  intervalMinutes: 30,
};
const call = (
  client: number,
  request: Partial<CallRequest>,
  delivery: CallEvent['delivery'] = 'delivered',
): CallEvent => ({
  kind: 'call',
  client,
  request: { ...ok, ...request },
  delivery,
});
const reached = (steps: readonly Step[]) => {
  const coverage = emptyInputCoverage(setIntervalSpec);
  countInputCoverage(steps, DEFAULT_FIXTURE, setIntervalSpec, coverage);
  return INPUT_CLASSES.filter((c) => (coverage[c] ?? 0) > 0);
};

describe('what a call reaches', () => {
  it('its fields up to the first invalid one, and its principal', () => {
    expect(reached([call(0, { automationId: 0, expectedVersion: 2 ** 53 })])).toEqual([
      'automationId 0',
    ]);
    expect(reached([call(3, { requestId: 'R0', intervalMinutes: 1440 })])).toEqual([
      'automationId 1',
      'expectedVersion 1',
      'intervalMinutes 1440',
      'principal another user in the same workspace',
      'principal user differs only in case',
    ]);
  });

  it('a case twin only after the same client sent the other spelling', () => {
    const twin = 'requestId differs only in case from an earlier one';
    expect(reached([call(1, { requestId: 'r0' }), call(0, { requestId: 'R0' })])).not.toContain(
      twin,
    );
    expect(
      reached([call(0, { requestId: 'r0' }, 'lostRequest'), call(0, { requestId: 'R0' })]),
    ).toContain(twin);
  });

  it('no request class when rule 1 refuses first, and nothing from a lost request', () => {
    const carol = 5;
    expect(reached([call(carol, { requestId: '' })])).toEqual([
      'principal another user in the same workspace',
      'principal scopes without the write scope',
      'principal look-alike scope',
    ]);
    expect(reached([{ kind: 'revoke', client: 0 }, call(0, { requestId: '' })])).toEqual([
      'principal no scopes',
    ]);
    expect(reached([call(0, { requestId: '' }, 'lostRequest')])).toEqual([]);
    expect(
      reached([
        { kind: 'revoke', client: 0 },
        { kind: 'restore', client: 0 },
        call(0, { requestId: '' }),
      ]),
    ).toEqual(['requestId empty']);
  });
});

describe('a default run (300 runs of up to 20 steps)', () => {
  const coverageOf = (seed: number, exclude: InputClass[] = []) => {
    const coverage = emptyInputCoverage(setIntervalSpec);
    const arbitrary = sequenceArbitrary(DEFAULT_FIXTURE, {
      spec: setIntervalSpec,
      stepsMax: 20,
      races: true,
      recreate: true,
      excludeInputClasses: exclude,
    });
    for (const steps of fc.sample(arbitrary, { numRuns: 300, seed }))
      countInputCoverage(steps, DEFAULT_FIXTURE, setIntervalSpec, coverage);
    return coverage;
  };

  it('reaches every input class, for 10 seeds and the default one', () => {
    for (const seed of [42, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
      expect(unreachedInputClasses(coverageOf(seed)), `seed ${seed}`).toEqual([]);
  });

  it('reaches no class it was told to leave out, and every other', () => {
    const exclude: InputClass[] = [
      'requestId length 64',
      'requestId NUL',
      'expectedVersion beyond 32 bits',
      'intervalMinutes 1440',
      'principal extra scopes',
    ];
    expect(unreachedInputClasses(coverageOf(42, exclude))).toEqual([
      'requestId length 64',
      'requestId NUL',
      'expectedVersion beyond 32 bits',
      // Every MAX_SAFE_INTEGER is also beyond 32 bits.
      'expectedVersion MAX_SAFE_INTEGER',
      'intervalMinutes 1440',
      'principal extra scopes',
    ]);
  });
});

/**
 * The counts spelled out from `requestClasses` and `principalClasses`, one list per call: what
 * `countInputCoverage`, which reads memos and allocates next to nothing, must add up to.
 */
function oracleCoverage(
  steps: readonly Step[],
  fixture: FixtureWithPolicy,
  spec: OperationSpec,
  into: InputCoverage,
) {
  let principals: readonly Principal[] = fixture.principals;
  const sent = fixture.principals.map(() => new Set<string>());
  for (const { event } of flatten(steps)) {
    if (event.kind === 'revoke' || event.kind === 'restore')
      principals = afterScopeChange(principals, event, spec.scope);
    if (event.kind !== 'call') continue;
    const principal = principals[event.client];
    const earlier = sent[event.client];
    if (!principal || !earlier) continue;
    if (event.delivery !== 'lostRequest') {
      const classes: string[] = [...principalClasses(fixture, spec, event.client, principal)];
      if (principal.scopes.includes(spec.scope))
        classes.push(...requestClasses(event.request, earlier, spec));
      for (const c of classes) into[c] = (into[c] ?? 0) + 1;
    }
    if (isRequestId(event.request.requestId)) earlier.add(event.request.requestId);
  }
}

describe('the counts', () => {
  it('equal the classes of every call spelled out, for every operation', () => {
    for (const spec of BUILT_IN_OPERATIONS) {
      const fixture: FixtureWithPolicy =
        spec === DEFAULT_OPERATION ? DEFAULT_FIXTURE : { ...spec.fixture, operation: spec.name };
      const arbitrary = sequenceArbitrary(fixture, {
        spec,
        stepsMax: 20,
        races: true,
        recreate: true,
      });
      const counted = emptyInputCoverage(spec);
      const spelled = emptyInputCoverage(spec);
      for (const steps of fc.sample(arbitrary, { numRuns: 400, seed: 3 })) {
        countInputCoverage(steps, fixture, spec, counted);
        oracleCoverage(steps, fixture, spec, spelled);
      }
      expect(counted, spec.name).toEqual(spelled);
      expect(
        counted['requestId differs only in case from an earlier one'],
        spec.name,
      ).toBeGreaterThan(0);
    }
  });
});

describe('the summary', () => {
  const all = () => {
    const coverage = emptyInputCoverage(setIntervalSpec);
    for (const c of INPUT_CLASSES) coverage[c] = 3;
    return coverage;
  };

  it('lists the count of every class by input, and warns about none when all were reached', () => {
    const lines = formatInputCoverage(all());
    expect(lines[0]).toMatch(/^ {2}inputs {4}requestId +length 1 3 · length 36 3/);
    for (const input of ['automationId', 'expectedVersion', 'intervalMinutes', 'principal'])
      expect(
        lines.some((l) => l.trimStart().startsWith(input)),
        input,
      ).toBe(true);
    expect(lines.every((l) => l.length <= 100)).toBe(true);
    expect(lines.join('\n')).not.toContain('warning');
  });

  it('warns about each class never reached, a few by name', () => {
    const coverage = { ...all(), 'requestId emoji': 0, 'principal look-alike scope': 0 };
    expect(formatInputCoverage(coverage).filter((l) => l.includes('warning'))).toEqual([
      '  warning   input class never reached: requestId emoji',
      '  warning   input class never reached: principal look-alike scope',
    ]);
    const none = formatInputCoverage(emptyInputCoverage(setIntervalSpec)).filter((l) =>
      l.includes('warning'),
    );
    expect(none).toHaveLength(7);
    expect(none[6]).toContain(`${INPUT_CLASSES.length - 6} more input classes never reached`);
  });

  it('in a failing run, only says how many classes were reached', () => {
    expect(formatInputCoverage(all(), false)).toEqual([
      `  inputs    ${INPUT_CLASSES.length} of ${INPUT_CLASSES.length} input classes reached before the failure`,
    ]);
  });
});
