/**
 * An operation spec's mistakes are one `E_HANDLER_SHAPE` line naming the operation and the field,
 * before anything is generated from it; a precondition that refuses with a reason the spec does
 * not declare, and an effect that throws, stop the model the first time they happen, named as
 * the spec's. Every built-in spec and a user's zod-derived one pass. Each case below is a mistake
 * a new user made in their own spec, which had produced a misleading counterexample, an internal
 * error or nothing at all.
 */
import { describe, expect, it } from 'vitest';
import { bookSeats } from '../../testing/handlers/book-seats/book-seats.ts';
import { isReceiptcheckError } from '../errors.ts';
import { checkOperationSpec, specProblem } from './check-spec.ts';
import type { CallEvent } from './events.ts';
import type { ArgumentField, OperationSpec } from './operation.ts';
import { BUILT_IN_OPERATIONS } from './operations/index.ts';
import { initialState } from './state.ts';
import { step } from './step.ts';

/** `bookSeats` with field `name` replaced by `change` of it. */
const withField = (name: string, change: (f: ArgumentField) => ArgumentField): OperationSpec => ({
  ...bookSeats,
  fields: bookSeats.fields.map((f) => (f.name === name ? change(f) : f)),
});

describe('an operation spec, checked when a plugin brings it', () => {
  it('every built-in spec and a zod-derived one pass', () => {
    for (const spec of [...BUILT_IN_OPERATIONS, bookSeats])
      expect(specProblem(spec)).toBeUndefined();
  });

  it.each([
    [
      'a target field misspelt',
      { ...bookSeats, targetField: 'showID' },
      'its target field "showID" is not one of its fields (showId, seats, holder)',
    ],
    [
      'the target field left out of the fields',
      { ...bookSeats, fields: bookSeats.fields.filter((f) => f.name !== 'showId') },
      'its target field "showId" is not one of its fields (seats, holder)',
    ],
    [
      'a rule kind misspelt',
      withField('seats', (f) => ({ ...f, rule: { kind: 'int', min: 1, max: 8 } as never })),
      'field "seats": its rule\'s kind "int" is not one of id, integer, custom',
    ],
    [
      'bounds the wrong way round',
      withField('seats', (f) => ({ ...f, rule: { kind: 'integer', min: 6, max: 1 } })),
      'field "seats": its min 6 is above its max 1',
    ],
    [
      'a valid sample its own check refuses',
      withField('holder', (f) => ({
        ...f,
        rule: {
          kind: 'custom',
          check: (v) => typeof v === 'string' && v !== '',
          valid: ['Ann', ''],
        },
      })),
      'field "holder": its valid sample "" fails its own check',
    ],
    [
      'an invalid sample the rule accepts',
      withField('seats', (f) => ({ ...f, invalid: [0, 3] })),
      'field "seats": its invalid sample 3 passes its rule',
    ],
  ])('%s: one line naming it', (_, spec, problem) => {
    expect(specProblem(spec as OperationSpec)).toBe(problem);
    expect(() => checkOperationSpec(spec as OperationSpec)).toThrow(
      expect.objectContaining({
        code: 'E_HANDLER_SHAPE',
        message: `operation "book-seats": ${problem}`,
      }),
    );
  });
});

describe('what only running the spec tells', () => {
  const book = (seats: number): CallEvent => ({
    kind: 'call',
    client: 0,
    delivery: 'delivered',
    request: { requestId: 'r1', showId: 2, seats, holder: 'Ann' },
  });
  const start = (spec: OperationSpec) =>
    initialState({ ...spec.fixture, operation: spec.name }, spec);
  /** `CODE: message` of what stepping `spec` over `event` throws. */
  const thrownBy = (spec: OperationSpec, event: CallEvent) => {
    try {
      step(start(spec), event);
      return 'nothing';
    } catch (thrown) {
      if (!isReceiptcheckError(thrown)) throw thrown;
      return `${thrown.code}: ${thrown.message}`;
    }
  };

  it('a refusal the spec does not declare stops the model, naming it', () => {
    const { refusals: _, ...undeclared } = bookSeats;
    // Show 2 has one seat left: two are sold out.
    expect(thrownBy(undeclared as OperationSpec, book(2))).toMatch(
      /^E_HANDLER_SHAPE: operation "book-seats": its precondition refused with "sold-out", which its refusals do not list; declare refusals: \["sold-out"\]/,
    );
    expect(thrownBy(bookSeats, book(2))).toBe('nothing');
  });

  it("an effect that throws is named as the spec's", () => {
    const broken: OperationSpec = {
      ...bookSeats,
      effect: (row) => ({ row, result: (row as unknown as { x: { y: number } }).x.y as never }),
    };
    expect(thrownBy(broken, book(1))).toMatch(
      /^E_HANDLER_SHAPE: operation "book-seats": its effect threw on row .* and arguments .*: Cannot read properties of undefined/,
    );
  });
});
