/** `validatePlugin`'s check of the optional `advanceClock`: a function when given. */
import { describe, expect, it } from 'vitest';
import reference from '../../handlers/operations/set-interval/sqlite/set-interval-reference.ts';
import { validatePlugin } from './load-plugin.ts';

describe('validatePlugin: advanceClock', () => {
  it('accepts a plugin with or without it', () => {
    expect(validatePlugin(reference, 'ref.ts')).toBe(reference);
    const clocked = { ...reference, advanceClock: () => {} };
    expect(validatePlugin(clocked, 'ref.ts')).toBe(clocked);
  });

  it('refuses one that is not a function, in one line', () => {
    expect(() => validatePlugin({ ...reference, advanceClock: 5 }, 'ref.ts')).toThrow(
      /^handler "reference" \(ref\.ts\): "advanceClock" must be a function when given$/,
    );
  });
});
