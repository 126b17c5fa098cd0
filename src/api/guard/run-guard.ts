/**
 * The drawn-spec guard: "a correct handler always passes", held for operation specs the
 * harness has never seen. It draws specs across the spec's space (`generate/drawn-spec/`), builds
 * the generic handler for each (`handlers/generic/`, correct by construction), and checks it in
 * every mode asked for; any red verdict is a false verdict, the harness's bug. A failing case's
 * plugin module and case files are saved together, so `receiptcheck replay` re-runs it.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { makeTempDir, removeTempDir } from '../../execute/runtime/temp-dirs.ts';
import type { Engine } from '../../handlers/engine.ts';
import type { DrawnCase } from '../../handlers/generic/drawn-plugin.ts';
import type { Mode } from '../../types/mode.ts';
import { saveCounterexample } from '../counterexample-store.ts';
import {
  casePassed,
  checkDrawnCase,
  type DrawnCaseResult,
  type ModeVerdict,
} from './check-drawn-case.ts';
import { drawCases } from './drawn-case-arbitrary.ts';
import type { PluginFactory } from './drawn-plugin-file.ts';

/** What a guard run checks. */
export interface GuardOptions {
  /** Specs drawn. */
  readonly specs: number;
  /** Runs per spec and mode. */
  readonly runs: number;
  /** Draws the specs, and seeds every check. */
  readonly seed: number;
  readonly engine: Engine;
  readonly modes: readonly Mode[];
  /** Draw zod-derived fields too (zod must be installed). */
  readonly zod: boolean;
  /** Check only the `only`-th spec (1-based) of the draw, to reproduce one. */
  readonly only?: number;
  /** Where a failing case's plugin module and case files go. */
  readonly out: string;
  readonly workers?: number;
  readonly databaseUrl?: string;
  /** The handler's factory (default: the correct generic handler). */
  readonly factory?: PluginFactory;
  /** Called before each spec is checked, with its 1-based index. */
  readonly onStart?: (index: number, drawn: DrawnCase) => void;
  /** Called after each spec is checked. */
  readonly onCase?: (index: number, result: GuardCase) => void;
}

/** One spec's verdicts, and for a failing one where its files went. */
export interface GuardCase extends DrawnCaseResult {
  /** 1-based, in the draw's order. */
  readonly index: number;
  /** The saved plugin module and case files (empty when every mode passed). */
  readonly saved: readonly string[];
}

/** What a guard run found. */
export interface GuardResult {
  readonly cases: readonly GuardCase[];
  /** Failed modes over all specs: each a false verdict. */
  readonly falseVerdicts: number;
  readonly elapsedMs: number;
}

/** The modes that failed on a case. */
export function failedModes(c: DrawnCaseResult): ModeVerdict[] {
  return c.modes.filter((m) => m.verdict === 'failed');
}

/** Draws `o.specs` specs and checks each in every mode of `o`. */
export async function runGuard(o: GuardOptions): Promise<GuardResult> {
  const started = performance.now();
  const drawn = drawCases(o.specs, o.seed, o.engine, o.zod);
  const work = makeTempDir('guard');
  const cases: GuardCase[] = [];
  try {
    for (const [i, c] of drawn.entries()) {
      const index = i + 1;
      if (o.only !== undefined && index !== o.only) continue;
      o.onStart?.(index, c);
      const result = await checkDrawnCase(c, {
        dir: work,
        modes: o.modes,
        runs: o.runs,
        seed: o.seed,
        ...(o.workers !== undefined ? { workers: o.workers } : {}),
        ...(o.databaseUrl !== undefined ? { databaseUrl: o.databaseUrl } : {}),
        ...(o.factory ? { factory: o.factory } : {}),
      });
      const guardCase = casePassed(result)
        ? { ...result, index, saved: [] }
        : { ...(await saveCase(result, o.out)), index };
      cases.push(guardCase);
      o.onCase?.(index, guardCase);
    }
  } finally {
    removeTempDir(work);
  }
  return {
    cases,
    falseVerdicts: cases.reduce((n, c) => n + failedModes(c).length, 0),
    elapsedMs: performance.now() - started,
  };
}

/**
 * Copies a failing case's plugin module into `out` and saves each counterexample beside it,
 * naming the copy as its handler, so the case files replay from there; the result names the
 * copy too (the original goes with the run's temp directory).
 */
async function saveCase(
  result: DrawnCaseResult,
  out: string,
): Promise<DrawnCaseResult & { saved: string[] }> {
  const folder = resolve(out);
  mkdirSync(folder, { recursive: true });
  const plugin = join(folder, basename(result.handler));
  copyFileSync(result.handler, plugin);
  const saved = [plugin];
  const modes: ModeVerdict[] = [];
  for (const m of result.modes) {
    if (!m.counterexample) {
      modes.push(m);
      continue;
    }
    const counterexample = { ...m.counterexample, handler: plugin };
    saved.push((await saveCounterexample(counterexample, folder)).path);
    modes.push({ ...m, counterexample });
  }
  return { ...result, handler: plugin, modes, saved };
}
