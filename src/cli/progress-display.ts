/**
 * A progress bar on a terminal while a check runs: runs done, steps per second, event kinds seen,
 * elapsed and ETA. Drawn on stderr only when it is a TTY, so logs and pipes stay clean; cleared
 * when the check ends so the summary follows on a clean line.
 */

import cliProgress from 'cli-progress';
import { COVERAGE_KINDS } from '../types/coverage.ts';
import type { Progress } from '../types/options.ts';

/** A progress display: pass `onProgress` to `checkHandler`, call `stop()` when it returns. */
export interface ProgressDisplay {
  readonly onProgress: ((progress: Progress) => void) | undefined;
  stop(): void;
}

/** A display on `stream`, or a silent one when there is no terminal. */
export function createProgressDisplay(stream: NodeJS.WriteStream | undefined): ProgressDisplay {
  if (!stream) return { onProgress: undefined, stop() {} };
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format:
        'runs {value}/{total} {bar} {steps} steps, {stepsPerSecond}/s | {kinds}/{allKinds} event kinds seen | elapsed {duration_formatted} | ETA {eta_formatted}',
      barsize: 20,
      hideCursor: true,
      clearOnComplete: true,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    onProgress(p) {
      const payload = {
        steps: p.steps,
        stepsPerSecond: p.elapsedMs > 0 ? Math.round((p.steps * 1000) / p.elapsedMs) : 0,
        kinds: COVERAGE_KINDS.filter((k) => (p.coverage[k] ?? 0) > 0).length,
        allKinds: COVERAGE_KINDS.length,
      };
      if (!started) {
        bar.start(p.runsPlanned, p.runs, payload);
        started = true;
      } else bar.update(p.runs, payload);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
