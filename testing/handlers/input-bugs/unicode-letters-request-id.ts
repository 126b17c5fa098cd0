/**
 * Input bug: request ids are validated as "letters, digits, `_` and `-`" with Unicode classes
 * (`\p{L}`, `\p{N}`), so `é`, Cyrillic `а` and full-width `ｒ０` pass, and ids that render the
 * same are different keys. Caught only by accented, homoglyph and full-width ids.
 */
import type { InputClass } from '../../../src/types/input-coverage.ts';
import { defineInputBug } from './define-input-bug.ts';
import { requestIdRule } from './request-id-rule.ts';

export const CAUGHT_BY: readonly InputClass[] = [
  'requestId accented letter',
  'requestId homoglyph',
  'requestId full-width',
];

const UNICODE_ID = /^[\p{L}\p{N}_-]{1,64}$/u;

export default defineInputBug({
  name: 'unicode-letters-request-id',
  description: 'Validates request ids with \\p{L} and \\p{N}, so é, Cyrillic а and ｒ０ pass.',
  precheck: requestIdRule((id) => typeof id === 'string' && UNICODE_ID.test(id)),
});
