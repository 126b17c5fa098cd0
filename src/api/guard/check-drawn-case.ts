/**
 * One guard case checked: its plugin module written, then `checkHandler` in each mode asked for.
 * The handler is correct by construction, so every mode must pass; a failed mode (or a check
 * that could not run at all) is a false verdict of the harness, kept with its counterexample.
 */
import { rmSync } from 'node:fs';
import { messageOf } from '../../errors.ts';
import { interruption } from '../../execute/runtime/interrupt.ts';
import type { DrawnCase } from '../../handlers/generic/drawn-plugin.ts';
import type { Mode } from '../../types/mode.ts';
import type { Counterexample } from '../../types/results.ts';
import { checkHandler } from '../check-handler.ts';
import { DRAWN_PLUGIN_FACTORY, type PluginFactory, writeDrawnPlugin } from './drawn-plugin-file.ts';

/** How one case is checked. */
export interface DrawnCaseOptions {
  /** Where its plugin module is written; kept there when a mode fails. */
  readonly dir: string;
  readonly modes: readonly Mode[];
  /** Runs per mode. */
  readonly runs: number;
  readonly seed: number;
  readonly workers?: number;
  readonly databaseUrl?: string;
  /** The handler's factory (default: the correct generic handler; a broken one in tests). */
  readonly factory?: PluginFactory;
}

/** One mode's verdict on a case. */
export interface ModeVerdict {
  readonly mode: Mode;
  readonly verdict: 'passed' | 'failed';
  readonly runs: number;
  readonly counterexample?: Counterexample;
  /** Set when the check could not run (a coded error); counted as failed. */
  readonly error?: string;
}

/** A case's verdicts, and where its plugin module is. */
export interface DrawnCaseResult {
  readonly drawn: DrawnCase;
  /** The plugin module's path; removed again when every mode passed. */
  readonly handler: string;
  readonly modes: readonly ModeVerdict[];
}

/** Whether every mode passed. */
export function casePassed(r: DrawnCaseResult): boolean {
  return r.modes.every((m) => m.verdict === 'passed');
}

/** Checks `drawn` in every mode of `o`. */
export async function checkDrawnCase(
  drawn: DrawnCase,
  o: DrawnCaseOptions,
): Promise<DrawnCaseResult> {
  const handler = writeDrawnPlugin(o.dir, drawn, o.factory ?? DRAWN_PLUGIN_FACTORY);
  const modes: ModeVerdict[] = [];
  for (const mode of o.modes) {
    try {
      const r = await checkHandler({
        handler,
        mode,
        runs: o.runs,
        seed: o.seed,
        ...(o.workers !== undefined ? { workers: o.workers } : {}),
        ...(o.databaseUrl !== undefined ? { databaseUrl: o.databaseUrl } : {}),
      });
      modes.push({
        mode,
        verdict: r.verdict,
        runs: r.runs,
        ...(r.counterexample ? { counterexample: r.counterexample } : {}),
      });
    } catch (thrown) {
      // Ctrl-C stops the guard; any other error is the harness refusing a correct handler.
      if (interruption()) throw thrown;
      modes.push({ mode, verdict: 'failed', runs: 0, error: messageOf(thrown) });
    }
  }
  const result = { drawn, handler, modes };
  if (casePassed(result)) rmSync(handler, { force: true });
  return result;
}
