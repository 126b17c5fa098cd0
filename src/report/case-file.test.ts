/**
 * The case-file format: a round trip keeps every value a generator can send, and malformed
 * files are rejected with a message that names the file and the bad field.
 */

import { describe, expect, it } from 'vitest';
import type { Step } from '../model/events.ts';
import { DEFAULT_FIXTURE } from '../model/world.ts';
import { CASE_FORMAT } from '../types/case-file.ts';
import { formatCaseFile, parseCaseFile } from './case-file.ts';

const steps: Step[] = [
  {
    kind: 'call',
    client: 0,
    delivery: 'lostResponse',
    intent: 'new',
    request: {
      requestId: 'r0',
      automationId: Number.NaN,
      expectedVersion: Number.POSITIVE_INFINITY,
      intervalMinutes: -0,
    },
  },
  {
    kind: 'concurrent',
    events: [
      { kind: 'revoke', client: 1 },
      { kind: 'move', resourceId: 1, workspace: 'team-b' },
    ],
  },
  { kind: 'storeFail' },
  { kind: 'clockAdvance', ms: 5_400_000 },
];

describe('case files', () => {
  it('round-trips steps with NaN, Infinity and -0 intact', () => {
    const text = formatCaseFile({
      name: 'x',
      description: '',
      handler: 'reference',
      mode: 'sequential',
      fixture: DEFAULT_FIXTURE,
      steps,
      extra: { seed: 7 },
    });
    const parsed = parseCaseFile(text, 'x.json');
    expect(parsed.steps).toEqual(steps);
    const request = (
      parsed.steps[0] as unknown as { request: { automationId: number; intervalMinutes: number } }
    ).request;
    expect(Number.isNaN(request.automationId)).toBe(true);
    expect(Object.is(request.intervalMinutes, -0)).toBe(true);
    expect(parsed.extra).toEqual({ seed: 7 });
  });

  it.each([
    ['{', /not valid JSON/],
    ['[]', /must hold a JSON object/],
    ['{"steps": []}', /must have "format"/],
    [`{"format": "${CASE_FORMAT}"}`, /needs a "steps" array/],
    [
      `{"format": "${CASE_FORMAT}", "steps": [{"kind": "teleport"}]}`,
      /step 1: unknown kind "teleport"/,
    ],
    [
      `{"format": "${CASE_FORMAT}", "steps": [{"kind": "clockAdvance", "ms": -1}]}`,
      /step 1: "ms" must be a positive whole number/,
    ],
    [
      `{"format": "${CASE_FORMAT}", "steps": [{"kind": "call", "client": "0", "request": {}}]}`,
      /step 1: "client" must be an integer/,
    ],
    [
      `{"format": "${CASE_FORMAT}", "steps": [{"kind": "call", "client": 0, "request": {}, "expect": {"kind": "great"}}]}`,
      /step 1: "expect" is not an outcome pattern/,
    ],
  ])('rejects %s', (text, message) => {
    expect(() => parseCaseFile(text, 'bad.json')).toThrow(message);
    expect(() => parseCaseFile(text, 'bad.json')).toThrow(/^bad\.json /);
  });
});

describe('an incomplete counterexample', () => {
  /** A counterexample as `run` writes it, less `drop`. */
  const written = (drop: string) => {
    const full: Record<string, unknown> = {
      format: CASE_FORMAT,
      name: 'x: counterexample (seed 42)',
      handler: 'receipt-after-commit',
      mode: 'scheduled',
      fixture: DEFAULT_FIXTURE,
      steps: [],
      seed: 42,
      failures: [],
    };
    delete full[drop];
    return JSON.stringify(full);
  };

  it.each([
    [
      'fixture',
      /x\.json is a counterexample \(it has "failures", which run writes\) with no "fixture": it would replay in the default world/,
    ],
    ['mode', /with no "mode": it would replay in sequential mode, not the mode it failed in/],
  ])('without %s is refused, the field named', (field, message) => {
    expect(() => parseCaseFile(written(field), 'x.json')).toThrow(message);
  });

  it("complete, or without the run's record (a scenario, with its documented defaults), is read", () => {
    expect(parseCaseFile(written('nothing'), 'x.json').mode).toBe('scheduled');
    const scenario = JSON.stringify({ format: CASE_FORMAT, steps: [] });
    expect(parseCaseFile(scenario, 's.json')).toMatchObject({
      mode: 'sequential',
      fixture: DEFAULT_FIXTURE,
      source: 's.json',
    });
  });

  it('a fixture that is not an object, or names its operation by anything but a name, is refused', () => {
    const withFixture = (fixture: unknown) =>
      JSON.stringify({ format: CASE_FORMAT, steps: [], fixture });
    expect(() => parseCaseFile(withFixture([]), 'f.json')).toThrow(/"fixture" must be an object/);
    expect(() => parseCaseFile(withFixture({ operation: 3 }), 'f.json')).toThrow(
      /"operation" must be the name of an operation/,
    );
  });

  it('the file it was read from is never written back', () => {
    const c = parseCaseFile(written('nothing'), 'x.json');
    expect(formatCaseFile(c)).not.toContain('x.json');
  });
});
