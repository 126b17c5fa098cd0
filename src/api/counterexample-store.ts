/**
 * Writes counterexamples to disk as case files, so `receiptcheck replay FILE` can re-run them and
 * a copy under `scenarios/` becomes a regression scenario. The only file writing of a failing run.
 * A counterexample found on real threads depends on timing to fail again, so before it is written
 * scheduled mode is searched for an interleaving that reproduces it; one found is saved in the same
 * file (`"scheduled"`), and `replay` runs it first, deterministically.
 */

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { messageOf, ReceiptcheckError } from '../errors.ts';
import { scheduleOfCase } from '../execute/schedule/schedule-of-case.ts';
import { isServicePath } from '../execute/service/service-path.ts';
import { formatCaseFile } from '../report/case-file.ts';
import { counterexampleFileName, counterexampleToCase } from '../report/counterexample-case.ts';
import { DEFAULT_SCHEDULES_MAX, type ReproductionSearch } from '../types/replay.ts';
import type { Counterexample } from '../types/results.ts';
import { searchSchedules } from './schedule-search.ts';

/** The folder counterexamples go to when `--out` is not given, relative to the working directory. */
export const DEFAULT_OUT_DIR = 'counterexamples';

/** How a save searches for a concurrent counterexample's scheduled reproduction. */
export interface SaveOptions {
  /** Most schedules searched; 0 skips the search. Default `DEFAULT_SCHEDULES_MAX` (200). */
  readonly schedulesMax?: number;
  /** The file's name in `dir`. Default `counterexampleFileName(cx)`: handler, mode and seed. */
  readonly fileName?: string;
}

/** Where a counterexample went, and for a concurrent one what the schedule search found. */
export interface SavedCounterexample {
  /** The file, relative to `cwd` when it lies below it, absolute otherwise. */
  readonly path: string;
  /** Present for a concurrent counterexample with a concurrent group, when the search ran. */
  readonly reproduction?: ReproductionSearch;
}

/** The public `saveCounterexample`, which `on-first-call.ts` documents and loads this for. */
export async function saveCounterexample(
  cx: Counterexample,
  dir: string = DEFAULT_OUT_DIR,
  cwd: string = process.cwd(),
  options: SaveOptions = {},
): Promise<SavedCounterexample> {
  const reproduction = await searchReproduction(cx, options.schedulesMax ?? DEFAULT_SCHEDULES_MAX);
  const folder = resolve(cwd, dir);
  const scheduled = reproduction?.found ? reproduction.reproduction : undefined;
  let file: string;
  try {
    mkdirSync(folder, { recursive: true });
    file = ownFile(folder, options.fileName ?? counterexampleFileName(cx), cx.handler);
    writeFileSync(file, formatCaseFile(counterexampleToCase(cx, scheduled)));
  } catch (thrown) {
    throw new ReceiptcheckError(
      'E_BAD_OPTION',
      `cannot write the counterexample to ${folder}: ${messageOf(thrown)}; pass a writable folder with --out`,
      { cause: thrown },
    );
  }
  const rel = relative(cwd, file);
  return { path: rel.startsWith('..') ? file : rel, ...(reproduction ? { reproduction } : {}) };
}

/**
 * Where in `folder` a case of `handler` named `name` goes: `name` itself, unless a case of another
 * handler is there (two plugins that share a `name`, say), whose case would be lost without a
 * word; then `name` with `-2`, `-3`, … before `.json`, the first free or of the same handler.
 */
function ownFile(folder: string, name: string, handler: string): string {
  for (let n = 1; ; n++) {
    const file = join(folder, n === 1 ? name : name.replace(/\.json$/, `-${n}.json`));
    if (!existsSync(file) || handlerOf(file) === handler) return file;
  }
}

/** The `handler` a case file names, or undefined when it cannot be read as one. */
function handlerOf(file: string): string | undefined {
  try {
    const handler = (JSON.parse(readFileSync(file, 'utf8')) as { handler?: unknown }).handler;
    return typeof handler === 'string' ? handler : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The scheduled reproduction of a concurrent counterexample, searched for; undefined for other
 * counterexamples. An error stops the search, not the save: it is reported with what was tried.
 */
async function searchReproduction(
  cx: Counterexample,
  schedulesMax: number,
): Promise<ReproductionSearch | undefined> {
  if (cx.mode !== 'concurrent' || schedulesMax < 1) return undefined;
  if (!cx.steps.some((s) => s.kind === 'concurrent')) return undefined;
  // A described service's statements are out of the scheduler's reach: nothing to search.
  if (isServicePath(cx.handler)) return undefined;
  try {
    const c = counterexampleToCase(cx);
    // A counterexample reduced in scheduled mode carries the schedule it fails under: tried first.
    const first = scheduleOfCase(c.extra);
    const search = await searchSchedules(c, { schedulesMax, ...(first ? { first } : {}) });
    if (!search.found) return { found: false, schedules: search.tried };
    return {
      found: true,
      reproduction: {
        schedule: search.found.schedule,
        traceHash: search.found.traceHash,
        foundAt: search.found.at,
        schedulesMax,
        ...(search.found.serverOrdered ? { serverOrdered: true as const } : {}),
      },
    };
  } catch (thrown) {
    return { found: false, schedules: 0, error: messageOf(thrown) };
  }
}
