/**
 * The known-findings file: the findings a user has accepted, by rule and shape, with a note each,
 * committed beside the code so CI fails only on new findings. JSON:
 *
 *     {"format": "receiptcheck-known-findings/1",
 *      "findings": [{"rule": "rule 8", "shape": "…", "note": "F2, reported upstream", "id": "…"}]}
 *
 * `id` is optional; when present it must be the signature's id, which catches a hand-edited
 * shape. `formatKnownFindings` writes one from a run's findings. Parsing is pure and strict: a
 * malformed file is rejected in one line naming the file and the bad entry.
 */

import { ReceiptcheckError } from '../errors.ts';
import {
  type FindingSignature,
  KNOWN_FINDINGS_FORMAT,
  type KnownFinding,
  type KnownFindings,
} from '../types/findings.ts';
import type { Finding } from '../types/results.ts';
import { decodeJson, encodeJson } from './encode.ts';
import { signatureId } from './finding-signature.ts';

const ENTRY_KEYS = new Set(['rule', 'shape', 'note', 'id']);

/** Parses a known-findings file's text; `source` names it in error messages (`E_BAD_KNOWN_FINDINGS`). */
export function parseKnownFindings(text: string, source: string): KnownFindings {
  let raw: unknown;
  try {
    raw = decodeJson(text);
  } catch (thrown) {
    return fail(source, `is not valid JSON (${(thrown as Error).message})`);
  }
  if (!isObject(raw)) return fail(source, 'must hold a JSON object');
  if (raw.format !== KNOWN_FINDINGS_FORMAT)
    return fail(source, `must have "format": "${KNOWN_FINDINGS_FORMAT}"`);
  if (!Array.isArray(raw.findings))
    return fail(source, 'needs a "findings" array (it may be empty)');
  const findings = raw.findings.map((entry, i): KnownFinding => {
    const where = `finding ${i + 1}`;
    if (!isObject(entry)) return fail(source, `${where} must be an object`);
    const unknown = Object.keys(entry).filter((k) => !ENTRY_KEYS.has(k));
    if (unknown.length > 0)
      return fail(
        source,
        `${where} has unknown field ${JSON.stringify(unknown[0])} (allowed: rule, shape, note, id)`,
      );
    for (const k of ['rule', 'shape'] as const)
      if (typeof entry[k] !== 'string' || entry[k] === '')
        return fail(
          source,
          `${where} needs "${k}" as a non-empty string (copy it from a run's findings)`,
        );
    if (entry.note !== undefined && typeof entry.note !== 'string')
      return fail(source, `${where}: "note" must be a string`);
    const signature = { rule: entry.rule as string, shape: entry.shape as string };
    if (entry.id !== undefined && entry.id !== signatureId(signature))
      return fail(
        source,
        `${where}: "id" ${JSON.stringify(entry.id)} is not the id of its rule and shape (${signatureId(signature)}); fix the shape or drop the id`,
      );
    return { ...signature, ...(typeof entry.note === 'string' ? { note: entry.note } : {}) };
  });
  return { findings };
}

/** The known finding matching `s`, if any. */
export function knownMatch(
  known: KnownFindings | undefined,
  s: FindingSignature,
): KnownFinding | undefined {
  return known?.findings.find((k) => k.rule === s.rule && k.shape === s.shape);
}

/**
 * A known-findings file listing `findings`: a known one keeps its note, a new one gets a note
 * saying where it was found, to be replaced by why it is accepted.
 */
export function formatKnownFindings(findings: readonly Finding[]): string {
  return `${encodeJson(
    {
      format: KNOWN_FINDINGS_FORMAT,
      findings: findings.map((f) => ({
        rule: f.rule,
        shape: f.shape,
        note:
          f.note ??
          `found by ${f.counterexample.handlerName} in ${f.counterexample.mode} mode, seed ${f.counterexample.seed}: say why it is accepted`,
        id: f.id,
      })),
    },
    2,
  )}\n`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(source: string, message: string): never {
  throw new ReceiptcheckError('E_BAD_KNOWN_FINDINGS', `${source} ${message}`);
}
