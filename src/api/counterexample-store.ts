/**
 * Writes counterexamples to disk as case files, so `receiptcheck replay FILE` can re-run them and
 * a copy under `scenarios/` becomes a regression scenario. The only file writing of a failing run.
 */

import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { messageOf, ReceiptcheckError } from '../errors.ts';
import { formatCaseFile } from '../report/case-file.ts';
import { counterexampleFileName, counterexampleToCase } from '../report/counterexample-case.ts';
import type { Counterexample } from '../types/results.ts';

/** The folder counterexamples go to when `--out` is not given, relative to the working directory. */
export const DEFAULT_OUT_DIR = 'counterexamples';

/**
 * Saves `cx` under `dir` (created if missing) and returns the file's path, relative to `cwd` when
 * it lies below it (so printed commands stay short), absolute otherwise.
 */
export function saveCounterexample(
  cx: Counterexample,
  dir: string = DEFAULT_OUT_DIR,
  cwd: string = process.cwd(),
): string {
  const folder = resolve(cwd, dir);
  const file = join(folder, counterexampleFileName(cx));
  try {
    mkdirSync(folder, { recursive: true });
    writeFileSync(file, formatCaseFile(counterexampleToCase(cx)));
  } catch (thrown) {
    throw new ReceiptcheckError(
      'E_BAD_OPTION',
      `cannot write the counterexample to ${folder}: ${messageOf(thrown)}; pass a writable folder with --out`,
      { cause: thrown },
    );
  }
  const rel = relative(cwd, file);
  return rel.startsWith('..') ? file : rel;
}
