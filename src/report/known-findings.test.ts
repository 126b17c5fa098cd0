/**
 * The known-findings file: a well-formed file parses (and `formatKnownFindings` writes one that
 * does), every malformed one is refused in one line that names the file and the entry.
 */
import { describe, expect, it } from 'vitest';
import { isReceiptcheckError } from '../errors.ts';
import { KNOWN_FINDINGS_FORMAT } from '../types/findings.ts';
import { signatureId } from './finding-signature.ts';
import { knownMatch, parseKnownFindings } from './known-findings.ts';

const SIGNATURE = { rule: 'rule 7', shape: 'retry ✗ replayed→fresh' };
const file = (findings: unknown) => JSON.stringify({ format: KNOWN_FINDINGS_FORMAT, findings });

function refusal(text: string): string {
  try {
    parseKnownFindings(text, 'known.json');
  } catch (thrown) {
    if (isReceiptcheckError(thrown) && thrown.code === 'E_BAD_KNOWN_FINDINGS')
      return thrown.message;
    throw thrown;
  }
  throw new Error('accepted');
}

describe('parseKnownFindings', () => {
  it('reads rule, shape, note and a matching id, and matches by rule and shape', () => {
    const parsed = parseKnownFindings(
      file([
        { ...SIGNATURE, note: 'F1', id: signatureId(SIGNATURE) },
        { rule: 'hang', shape: 'new ✗ hang' },
      ]),
      'known.json',
    );
    expect(parsed.findings).toEqual([
      { ...SIGNATURE, note: 'F1' },
      { rule: 'hang', shape: 'new ✗ hang' },
    ]);
    expect(knownMatch(parsed, SIGNATURE)?.note).toBe('F1');
    expect(knownMatch(parsed, { ...SIGNATURE, rule: 'rule 8' })).toBeUndefined();
  });

  it.each([
    ['not JSON', '{', /^known\.json is not valid JSON/],
    [
      'no format',
      JSON.stringify({ findings: [] }),
      /must have "format": "receiptcheck-known-findings\/1"/,
    ],
    [
      'no findings array',
      JSON.stringify({ format: KNOWN_FINDINGS_FORMAT }),
      /needs a "findings" array/,
    ],
    ['an entry that is not an object', file(['rule 7']), /finding 1 must be an object/],
    [
      'a missing shape',
      file([{ rule: 'rule 7' }]),
      /finding 1 needs "shape" as a non-empty string/,
    ],
    [
      'a misspelt field',
      file([{ ...SIGNATURE, shpae: 'x' }]),
      /finding 1 has unknown field "shpae"/,
    ],
    [
      'a note that is not text',
      file([{ ...SIGNATURE, note: 3 }]),
      /finding 1: "note" must be a string/,
    ],
    [
      'an id of another signature',
      file([{ ...SIGNATURE, id: '0000000000' }]),
      /finding 1: "id" "0000000000" is not the id of its rule and shape/,
    ],
  ])('refuses %s in one line', (_what, text, message) => {
    const m = refusal(text);
    expect(m).toMatch(message);
    expect(m).not.toContain('\n');
  });
});
