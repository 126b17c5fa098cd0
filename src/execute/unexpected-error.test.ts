/**
 * What a plugin let through is named by its class: an unmapped `TypeError` reads
 * `unexpected TypeError: x is not a function`, a library's error class with no message
 * `unexpected IdempotencyConflictError (no message)`, never an empty `unexpected error()`; a
 * thrown non-`Error` value and what the harness itself observed keep their words.
 */
import { describe, expect, it } from 'vitest';
import { errorClassOf } from '../errors.ts';
import { describeOutcome } from '../model/outcome.ts';
import { unexpectedOf } from './apply-event.ts';

class IdempotencyConflictError extends Error {}
/** The shape of `pg`'s error: its class named by its constructor, its `name` the message type. */
class DatabaseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'error';
  }
}

const said = (thrown: unknown) => describeOutcome(unexpectedOf(thrown));

describe('an unmapped exception', () => {
  it('is named by its class and message', () => {
    let typeError: unknown;
    try {
      (undefined as unknown as { x: () => void }).x();
    } catch (thrown) {
      typeError = thrown;
    }
    expect(said(typeError)).toMatch(/^unexpected TypeError: Cannot read properties of undefined/);
    expect(said(new TypeError('x is not a function'))).toBe(
      'unexpected TypeError: x is not a function',
    );
    expect(said(new DatabaseError('relation "r" does not exist'))).toBe(
      'unexpected DatabaseError: relation "r" does not exist',
    );
  });

  it('with no message, by its class alone', () => {
    expect(said(new IdempotencyConflictError())).toBe(
      'unexpected IdempotencyConflictError (no message)',
    );
    expect(said(new Error())).toBe('unexpected Error (no message)');
  });

  it('an error of another realm is named by its name; a non-Error value by what it is', () => {
    expect(errorClassOf({ name: 'SqliteError', message: 'no such table: t' })).toBe('SqliteError');
    expect(said({ status: 500 })).toBe(
      'unexpected error(a non-Error value was thrown: {"status":500})',
    );
    expect(said('boom')).toBe('unexpected error(boom)');
    expect(describeOutcome({ kind: 'unexpected', message: 'an escape cut the call short' })).toBe(
      'unexpected error(an escape cut the call short)',
    );
  });
});
