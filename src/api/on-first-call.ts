/**
 * The public functions that run the harness, each loading its module on its first call. A plugin
 * imports the package for `defineHandler` and the specs, and every worker thread of a check
 * imports the plugin: with these loaded at once, each such thread would load the whole harness
 * besides its own part of it (about 0.3 CPU-s a thread). Their types are the modules' own.
 */
import type { CaseFile } from '../types/case-file.ts';
import type { CheckOptions, SoakOptions } from '../types/options.ts';
import type { ProveResult } from '../types/prove.ts';
import type { ReplayResult } from '../types/replay.ts';
import type { CaseResult, CheckResult, Counterexample, SoakResult } from '../types/results.ts';
import type { AssertOptions } from './assert-handler.ts';
import type { SavedCounterexample, SaveOptions } from './counterexample-store.ts';
import type { ProveOptions } from './prove.ts';
import type { ReplayOptions } from './replay-case.ts';
import type { RunCaseOptions } from './run-case.ts';

/**
 * Runs the checker; resolves to the result as data. Throws a `ReceiptcheckError` on bad options
 * or a bad plugin, and `InterruptedError` when SIGINT or SIGTERM stopped it (no verdict then).
 * With mode `auto` (the default) it explores each of `AUTO_MODES` in turn, each with its share of
 * the runs and of the time left, and stops at the first counterexample. With `allFindings` it
 * explores every mode (and each of `seeds`) to the end and returns `findings`; it fails only
 * when one of them is not among `knownFindings`.
 */
export async function checkHandler(options?: CheckOptions): Promise<CheckResult> {
  return (await import('./check-handler.ts')).checkHandler(options);
}

/**
 * Runs the checker and throws `CounterexampleError` on a counterexample, after saving its case
 * file and HTML timeline; resolves to the passing result otherwise. Bad options and unfit
 * plugins throw `ReceiptcheckError` as `checkHandler` does.
 */
export async function assertHandler(options?: AssertOptions): Promise<CheckResult> {
  return (await import('./assert-handler.ts')).assertHandler(options);
}

/**
 * Runs every schedule of each case within a preemption bound (one case file, the operation's
 * named scenarios, or cases generated up to a size bound); stops at the first failing case,
 * which comes back as the schedule with the fewest preemptions, ready to save and replay.
 */
export async function prove(options?: ProveOptions): Promise<ProveResult> {
  return (await import('./prove.ts')).prove(options);
}

/** Runs a soak; throws a `ReceiptcheckError` for bad options, a bad plugin or a hung call. */
export async function soak(options?: SoakOptions): Promise<SoakResult> {
  return (await import('./soak.ts')).soak(options);
}

/** Runs case `c` once and reports both kinds of failure: the model's and the file's promises. */
export async function runCase(c: CaseFile, options?: RunCaseOptions): Promise<CaseResult> {
  return (await import('./run-case.ts')).runCase(c, options);
}

/**
 * Replays case `c` and says what the replay saw, never more: `reproduced`, `held` (only where
 * the run is exact), or `notReproduced`, with the schedules it searched counted.
 */
export async function replayCase(c: CaseFile, options?: ReplayOptions): Promise<ReplayResult> {
  return (await import('./replay-case.ts')).replayCase(c, options);
}

/**
 * Saves `cx` under `dir` (created if missing; default `counterexamples`). A concurrent
 * counterexample is first searched for in scheduled mode (its handler resolved from the
 * process's working directory, as the check did); the reproduction found is saved with it.
 * Paths are relative to `cwd` when below it, so printed commands stay short.
 */
export async function saveCounterexample(
  cx: Counterexample,
  dir?: string,
  cwd?: string,
  options?: SaveOptions,
): Promise<SavedCounterexample> {
  return (await import('./counterexample-store.ts')).saveCounterexample(cx, dir, cwd, options);
}
