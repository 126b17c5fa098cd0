/**
 * Reads scenario and counterexample files from disk. Parsing itself is pure (report/case-file.ts).
 */

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { messageOf, ReceiptcheckError } from '../errors.ts';
import { parseCaseFile } from '../report/case-file.ts';
import type { CaseFile } from '../types/case-file.ts';

/** Reads and parses one case file; throws `E_BAD_SCENARIO` naming the file. */
export function loadCaseFile(path: string): CaseFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (thrown) {
    throw new ReceiptcheckError(
      'E_BAD_SCENARIO',
      `cannot read case file ${path}: ${messageOf(thrown)}`,
    );
  }
  return parseCaseFile(text, path);
}

/** Every `.json` case file under `dir`, recursively, sorted by path. */
export function listCaseFiles(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...listCaseFiles(path));
    else if (name.endsWith('.json')) found.push(path);
  }
  return found;
}
