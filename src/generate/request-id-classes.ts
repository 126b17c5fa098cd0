/**
 * What a string request id is, by itself: its input classes that need no earlier id (every class
 * of `input-classes.ts` but "differs only in case"), whether it is valid, and its lower case.
 * Pure, and kept per distinct string: input coverage classifies every call of every run, and a
 * check sends the same few hundred ids over and over, so the regular expressions run once per id
 * instead of once per call (`report/input-coverage.ts`).
 */
import { isRequestId } from '../model/validate.ts';
import type { InputClass } from '../types/input-coverage.ts';

/** A string request id's classes that depend on it alone, its validity and its lower case. */
export interface RequestIdShape {
  /** In `requestIdClasses`'s order; frozen, shared by every call with this id. */
  readonly classes: readonly InputClass[];
  readonly valid: boolean;
  readonly lower: string;
}

/** Lengths a valid request id is classed by. */
const ID_LENGTHS = [1, 36, 37, 63, 64] as const;

/** The most ids kept; past it an id is classified afresh each time (same answer, no memory). */
const KEPT_MAX = 8_192;

const kept = new Map<string, RequestIdShape>();

/** `value`'s shape, from the memo when it was seen before. */
export function requestIdShape(value: string): RequestIdShape {
  let shape = kept.get(value);
  if (shape === undefined) {
    const valid = isRequestId(value);
    shape = Object.freeze({
      classes: Object.freeze(valid ? validClasses(value) : invalidClasses(value)),
      valid,
      lower: value.toLowerCase(),
    });
    if (kept.size < KEPT_MAX) kept.set(value, shape);
  }
  return shape;
}

function validClasses(value: string): InputClass[] {
  const out: InputClass[] = [];
  for (const n of ID_LENGTHS) if (value.length === n) out.push(`requestId length ${n}`);
  if (/^[0-9]+$/.test(value)) out.push('requestId digits only');
  if (/^[-_]|[-_]$/.test(value)) out.push('requestId _ or - at an edge');
  if (/[a-z]/.test(value) && /[A-Z]/.test(value)) out.push('requestId mixed case');
  return out;
}

function invalidClasses(value: string): InputClass[] {
  if (value === '') return ['requestId empty'];
  if (/^[A-Za-z0-9_-]+$/.test(value))
    return [value.length === 65 ? 'requestId length 65' : 'requestId longer than 65'];
  const out: InputClass[] = [];
  if (/^\s|\s$/.test(value)) out.push('requestId space at an edge');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is the class
  if (/[\x01-\x7f]/.test(value.trim().replace(/[A-Za-z0-9_-]/g, '')))
    out.push('requestId punctuation or space inside');
  if (value.includes('\u0000')) out.push('requestId NUL');
  if (/[\u00c0-\u024f]/.test(value)) out.push('requestId accented letter');
  if (/[\u0370-\u03ff\u0400-\u04ff]/.test(value)) out.push('requestId homoglyph');
  if (/[\uff01-\uff5e]/.test(value)) out.push('requestId full-width');
  if (/\p{Extended_Pictographic}/u.test(value)) out.push('requestId emoji');
  return out;
}

/** The classes of a request id that is not a string, by type; frozen. */
export function requestIdTypeClasses(value: unknown): readonly InputClass[] {
  if (value === null) return NULL_ID;
  if (typeof value === 'boolean') return BOOLEAN_ID;
  if (typeof value === 'number') return NUMBER_ID;
  if (Array.isArray(value)) return ARRAY_ID;
  if (typeof value === 'object') return OBJECT_ID;
  return NONE;
}

const NULL_ID: readonly InputClass[] = Object.freeze(['requestId null']);
const BOOLEAN_ID: readonly InputClass[] = Object.freeze(['requestId boolean']);
const NUMBER_ID: readonly InputClass[] = Object.freeze(['requestId number']);
const ARRAY_ID: readonly InputClass[] = Object.freeze(['requestId array']);
const OBJECT_ID: readonly InputClass[] = Object.freeze(['requestId object']);
const NONE: readonly InputClass[] = Object.freeze([]);
