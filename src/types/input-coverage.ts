/**
 * The input classes a run reports reaching: for each input a handler sees (the four request
 * fields and the principal), the classes and boundaries real handlers get wrong. Names only, in
 * the order summaries list them; what each class means, and how a value is classified, is
 * `generate/input-classes.ts`; counting is `report/input-coverage.ts`.
 */

/** The inputs a handler sees, in the order summaries list them. */
export const INPUTS = [
  'requestId',
  'automationId',
  'expectedVersion',
  'intervalMinutes',
  'principal',
] as const;

/** One input a handler sees. */
export type Input = (typeof INPUTS)[number];

/** The classes of a numeric id field (automationId, expectedVersion), after its field name. */
const ID_NUMBER_CLASSES = [
  '1',
  'beyond 32 bits',
  'MAX_SAFE_INTEGER',
  '0',
  'negative',
  'unsafe integer',
  'fraction',
  'NaN or Infinity',
  'numeric string',
  'other string',
  'boolean',
  'null',
] as const;

/** Every input class, `<input> <class>`, in the order summaries list them. */
export const INPUT_CLASSES = [
  // Valid request ids.
  'requestId length 1',
  'requestId length 36',
  'requestId length 37',
  'requestId length 63',
  'requestId length 64',
  'requestId digits only',
  'requestId _ or - at an edge',
  'requestId mixed case',
  'requestId differs only in case from an earlier one',
  // Invalid request ids.
  'requestId empty',
  'requestId length 65',
  'requestId longer than 65',
  'requestId space at an edge',
  'requestId punctuation or space inside',
  'requestId NUL',
  'requestId accented letter',
  'requestId homoglyph',
  'requestId full-width',
  'requestId emoji',
  'requestId number',
  'requestId null',
  'requestId boolean',
  'requestId array',
  'requestId object',
  ...ID_NUMBER_CLASSES.map((c) => `automationId ${c}` as const),
  ...ID_NUMBER_CLASSES.map((c) => `expectedVersion ${c}` as const),
  'intervalMinutes 5',
  'intervalMinutes 1440',
  'intervalMinutes 4',
  'intervalMinutes 1441',
  'intervalMinutes 0',
  'intervalMinutes negative',
  'intervalMinutes far out of range',
  'intervalMinutes unsafe integer',
  'intervalMinutes fraction',
  'intervalMinutes NaN or Infinity',
  'intervalMinutes numeric string',
  'intervalMinutes other string',
  'intervalMinutes boolean',
  'intervalMinutes null',
  'principal another user in the same workspace',
  'principal same user in another workspace',
  'principal user differs only in case',
  'principal workspace differs only in case',
  'principal no scopes',
  'principal extra scopes',
  'principal scopes without the write scope',
  'principal look-alike scope',
] as const;

/** One input class. */
export type InputClass = (typeof INPUT_CLASSES)[number];

/**
 * Calls that reached each input class of the run's operation (`INPUT_CLASSES` for
 * `set-interval`; `generate/field-classes.ts` derives any operation's), in the operation's class
 * order; every class present, zero when never reached.
 */
export type InputCoverage = Record<string, number>;

/** The input an input class is about: its first word (`requestId`, a field, `principal`). */
export function inputOf(cls: string): string {
  return cls.slice(0, cls.indexOf(' '));
}
