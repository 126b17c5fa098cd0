/**
 * Reads a known-findings file from disk; parsing itself is pure (`report/known-findings.ts`).
 */
import { readFileSync } from 'node:fs';
import { messageOf, ReceiptcheckError } from '../errors.ts';
import { parseKnownFindings } from '../report/known-findings.ts';
import type { KnownFindings } from '../types/findings.ts';

/** Reads and parses a known-findings file; throws `E_BAD_KNOWN_FINDINGS` naming the file. */
export function loadKnownFindings(path: string): KnownFindings {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (thrown) {
    throw new ReceiptcheckError(
      'E_BAD_KNOWN_FINDINGS',
      `cannot read the known-findings file ${path}: ${messageOf(thrown)}`,
    );
  }
  return parseKnownFindings(text, path);
}
