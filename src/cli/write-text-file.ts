/**
 * Writes a report file the user asked for (`--junit FILE`), creating its folder, and turns a
 * failure into a coded error that names the flag to fix.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { messageOf, ReceiptcheckError } from '../errors.ts';

/** Writes `text` to `path` (relative to the working directory); `flag` names the option in errors. */
export function writeTextFile(path: string, text: string, flag: string): void {
  const full = resolve(path);
  try {
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
  } catch (thrown) {
    throw new ReceiptcheckError(
      'E_BAD_OPTION',
      `${flag} ${path}: cannot write ${full} (${messageOf(thrown)}); pass a writable path`,
      { cause: thrown },
    );
  }
}
