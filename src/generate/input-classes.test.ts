/**
 * The input classes as a classifier: boundaries land on the right side, every edge example is in
 * its class, and the default fixture's principals are in the classes its doc comment gives them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ArgumentField } from '../model/operation.ts';
import { adjustBalance } from '../model/operations/adjust-balance.ts';
import { createOnce } from '../model/operations/create-once.ts';
import { setInterval } from '../model/operations/set-interval.ts';
import { invalidField } from '../model/validate.ts';
import { DEFAULT_FIXTURE, WRITE_SCOPE } from '../model/world.ts';
import { INPUT_CLASSES, type InputClass } from '../types/input-coverage.ts';
import { edgeExamples, edgeField, edgeValues } from './edge-values.ts';
import { fieldClassNames, inputClassesOf, valueClasses } from './field-classes.ts';
import {
  fieldClasses,
  isLookAlikeScope,
  principalClasses,
  requestClasses,
  requestIdClasses,
} from './input-classes.ts';
import { SHAPE_CLASS } from './request-ids.ts';

const id = (n: number) => 'r'.padEnd(n, 'x');

const edgeClasses = (excluded?: ReadonlySet<string>) => edgeValues(setInterval, excluded).classes;

describe('request id classes', () => {
  it('puts each length on its side of the limits', () => {
    expect(requestIdClasses(id(1))).toEqual(['requestId length 1']);
    expect(requestIdClasses(id(2))).toEqual([]);
    expect(requestIdClasses(id(36))).toEqual(['requestId length 36']);
    expect(requestIdClasses(id(37))).toEqual(['requestId length 37']);
    expect(requestIdClasses(id(63))).toEqual(['requestId length 63']);
    expect(requestIdClasses(id(64))).toEqual(['requestId length 64']);
    expect(requestIdClasses(id(65))).toEqual(['requestId length 65']);
    expect(requestIdClasses(id(66))).toEqual(['requestId longer than 65']);
    expect(requestIdClasses('')).toEqual(['requestId empty']);
  });

  it('names character classes and case', () => {
    expect(requestIdClasses('007')).toEqual(['requestId digits only']);
    expect(requestIdClasses('-r3')).toEqual(['requestId _ or - at an edge']);
    expect(requestIdClasses('r3_')).toEqual(['requestId _ or - at an edge']);
    expect(requestIdClasses('r-3')).toEqual([]);
    expect(requestIdClasses('aB3')).toEqual(['requestId mixed case']);
    expect(requestIdClasses('-')).toEqual(['requestId length 1', 'requestId _ or - at an edge']);
  });

  it('knows a case twin only from the ids sent before', () => {
    expect(requestIdClasses('R3')).toEqual([]);
    expect(requestIdClasses('R3', ['r3'])).toEqual([
      'requestId differs only in case from an earlier one',
    ]);
    expect(requestIdClasses('Ab', ['aB'])).toEqual([
      'requestId mixed case',
      'requestId differs only in case from an earlier one',
    ]);
    expect(requestIdClasses('r3', ['r3'])).toEqual([]);
  });

  it('names look-alikes and wrong types, all invalid', () => {
    const cases: [unknown, InputClass[]][] = [
      ['r0 ', ['requestId space at an edge']],
      ['edit/42', ['requestId punctuation or space inside']],
      ['r0\u0000', ['requestId NUL']],
      ['café', ['requestId accented letter']],
      ['\u0430b', ['requestId homoglyph']],
      ['\uff52\uff10', ['requestId full-width']],
      ['r0\u{1f600}', ['requestId emoji']],
      [42, ['requestId number']],
      [null, ['requestId null']],
      [true, ['requestId boolean']],
      [['r0'], ['requestId array']],
      [{ id: 'r0' }, ['requestId object']],
    ];
    for (const [value, classes] of cases) {
      expect(requestIdClasses(value), String(value)).toEqual(classes);
      expect(
        invalidField({ requestId: value, automationId: 1, expectedVersion: 1, intervalMinutes: 5 }),
      ).toBe('requestId');
    }
  });
});

describe('number classes', () => {
  it('puts the integer boundaries of ids and versions on their sides', () => {
    expect(fieldClasses('automationId', 1)).toEqual(['automationId 1']);
    expect(fieldClasses('automationId', 2)).toEqual([]);
    expect(fieldClasses('automationId', 2 ** 31 - 1)).toEqual([]);
    expect(fieldClasses('automationId', 2 ** 31)).toEqual(['automationId beyond 32 bits']);
    expect(fieldClasses('expectedVersion', Number.MAX_SAFE_INTEGER)).toEqual([
      'expectedVersion beyond 32 bits',
      'expectedVersion MAX_SAFE_INTEGER',
    ]);
    expect(fieldClasses('expectedVersion', 2 ** 53)).toEqual(['expectedVersion unsafe integer']);
    expect(fieldClasses('automationId', 0)).toEqual(['automationId 0']);
    expect(fieldClasses('automationId', -0)).toEqual(['automationId 0']);
    expect(fieldClasses('automationId', -1)).toEqual(['automationId negative']);
    expect(fieldClasses('automationId', 1.5)).toEqual(['automationId fraction']);
    expect(fieldClasses('automationId', Number.NaN)).toEqual(['automationId NaN or Infinity']);
    expect(fieldClasses('automationId', '1')).toEqual(['automationId numeric string']);
    expect(fieldClasses('automationId', ' 1e0 ')).toEqual(['automationId numeric string']);
    expect(fieldClasses('automationId', '1 OR 1=1')).toEqual(['automationId other string']);
    expect(fieldClasses('automationId', false)).toEqual(['automationId boolean']);
    expect(fieldClasses('automationId', null)).toEqual(['automationId null']);
  });

  it('puts each interval limit on its side', () => {
    const at = (v: number) => fieldClasses('intervalMinutes', v);
    expect([3, 4, 5, 6, 1439, 1440, 1441, 1442].map(at)).toEqual([
      ['intervalMinutes far out of range'],
      ['intervalMinutes 4'],
      ['intervalMinutes 5'],
      [],
      [],
      ['intervalMinutes 1440'],
      ['intervalMinutes 1441'],
      ['intervalMinutes far out of range'],
    ]);
  });
});

describe('a request', () => {
  it('reaches the classes of its fields up to the first invalid one, as the rules read them', () => {
    const request = {
      requestId: 'r0',
      automationId: 0,
      expectedVersion: 2 ** 53,
      intervalMinutes: 4,
    };
    expect(requestClasses(request, [])).toEqual(['automationId 0']);
    expect(requestClasses({ ...request, automationId: 1 }, [])).toEqual([
      'automationId 1',
      'expectedVersion unsafe integer',
    ]);
  });
});

describe('edge examples', () => {
  it('are each in their own class', () => {
    for (const [cls, values] of Object.entries(edgeExamples(setInterval)))
      for (const value of values)
        expect(
          fieldClasses(edgeField(cls, setInterval), value),
          `${cls}: ${String(value)}`,
        ).toContain(cls);
  });

  it('with the request id shapes, cover every request class an ordinary call does not reach', () => {
    const ordinary: InputClass[] = [
      'automationId 1',
      'expectedVersion 1',
      'intervalMinutes 5',
      'intervalMinutes 1440',
    ];
    const aimedAt = new Set([...edgeClasses(), ...Object.values(SHAPE_CLASS), ...ordinary]);
    expect(aimedAt).toEqual(new Set(INPUT_CLASSES.filter((c) => !c.startsWith('principal '))));
  });

  it('leave out an excluded class, and every value that is also in it', () => {
    expect(edgeClasses(new Set(['requestId NUL']))).not.toContain('requestId NUL');
    expect(edgeClasses(new Set(['expectedVersion beyond 32 bits']))).not.toContain(
      'expectedVersion MAX_SAFE_INTEGER',
    );
  });
});

describe('principal classes', () => {
  const classesOf = (i: number) => principalClasses(DEFAULT_FIXTURE, setInterval, i);

  it('place each principal of the default fixture against the ones before it', () => {
    expect(
      DEFAULT_FIXTURE.principals.map((p, i) => [`${p.user}@${p.workspace}`, classesOf(i)]),
    ).toEqual([
      ['alice@team-a', []],
      ['bob@team-a', ['principal another user in the same workspace']],
      ['alice@team-b', ['principal same user in another workspace']],
      // Alice is another user than bob, and alice's user in another spelling.
      [
        'Alice@team-a',
        ['principal another user in the same workspace', 'principal user differs only in case'],
      ],
      // Team-A is team-a in another spelling, not another workspace.
      ['bob@Team-A', ['principal workspace differs only in case']],
      [
        'carol@team-a',
        [
          'principal another user in the same workspace',
          'principal scopes without the write scope',
          'principal look-alike scope',
        ],
      ],
      ['dave@team-b', ['principal another user in the same workspace', 'principal extra scopes']],
    ]);
  });

  it('follow the scopes a principal holds now', () => {
    const [alice] = DEFAULT_FIXTURE.principals;
    if (!alice) throw new Error('the default fixture has principals');
    expect(principalClasses(DEFAULT_FIXTURE, setInterval, 0, { ...alice, scopes: [] })).toEqual([
      'principal no scopes',
    ]);
    expect(
      principalClasses(DEFAULT_FIXTURE, setInterval, 0, {
        ...alice,
        scopes: ['automation:read'],
      }),
    ).toEqual(['principal scopes without the write scope']);
  });

  it('tell a look-alike scope from the write scope and from other scopes', () => {
    expect(isLookAlikeScope(WRITE_SCOPE)).toBe(false);
    expect(isLookAlikeScope('automation:writer')).toBe(true);
    expect(isLookAlikeScope('Automation:write')).toBe(true);
    expect(isLookAlikeScope(' automation:write')).toBe(true);
    expect(isLookAlikeScope('automation:read')).toBe(false);
  });
});

describe('classes of any operation', () => {
  it('are exactly INPUT_CLASSES for set-interval, in its order', () => {
    expect(inputClassesOf(setInterval)).toEqual([...INPUT_CLASSES]);
  });

  it('name each limit of an integer field, just past it, and 0 where the rule rejects it', () => {
    expect(fieldClassNames(createOnce.fields[1] as ArgumentField).slice(0, 6)).toEqual([
      'amount 1',
      'amount 10000000',
      'amount 0',
      'amount 10000001',
      'amount negative',
      'amount far out of range',
    ]);
    const delta = adjustBalance.fields[1] as ArgumentField;
    expect(fieldClassNames(delta).slice(0, 8)).toEqual([
      'delta -1000000',
      'delta 1000000',
      'delta -1',
      'delta 1',
      'delta -1000001',
      'delta 1000001',
      'delta 0',
      'delta far out of range',
    ]);
    const at = (v: unknown) => fieldClasses('delta', v, [], adjustBalance);
    expect([-1_000_002, -1_000_001, -5, -1, 0, 1, 7, 1_000_001].map(at)).toEqual([
      ['delta far out of range'],
      ['delta -1000001'],
      [],
      ['delta -1'],
      ['delta 0'],
      ['delta 1'],
      [],
      ['delta 1000001'],
    ]);
  });

  it('class declared invalid values of a field', () => {
    const field: ArgumentField = { ...(createOnce.fields[1] as ArgumentField), invalid: [13] };
    expect(fieldClassNames(field)).toContain('amount declared invalid');
    expect(valueClasses(field, 13)).toEqual(['amount declared invalid']);
  });

  it("judge a principal's scopes by the run's operation", () => {
    const fixture = { ...adjustBalance.fixture, operation: adjustBalance.name };
    expect(principalClasses(fixture, adjustBalance, 5)).toEqual([
      'principal another user in the same workspace',
      'principal scopes without the write scope',
      'principal look-alike scope',
    ]);
    expect(principalClasses(fixture, adjustBalance, 6)).toContain('principal extra scopes');
  });
});

describe('a field of one value (integer min = max)', () => {
  const single: ArgumentField = { name: 'tag', rule: { kind: 'integer', min: 5, max: 5 } };
  const spec = { ...adjustBalance, fields: [...adjustBalance.fields, single] };

  it('draws every edge class, a fraction just past its limits among them', () => {
    const edges = edgeValues(spec);
    const fraction = edges.classes.find((c) => c === 'tag fraction');
    expect(fraction).toBeDefined();
    for (const value of fc.sample(edges.value(fraction as string), 20)) {
      expect(typeof value === 'number' && !Number.isInteger(value)).toBe(true);
    }
  });
});
