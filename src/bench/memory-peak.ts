/**
 * Memory high-water marks for the bench: the process's maxRSS (which counts worker threads,
 * since they share the process) and the highest V8 heap seen, sampled on a timer and on demand.
 */
import type { MemoryFigure } from './bench-report.ts';

/** A running sampler; `stop()` returns the figures. */
export interface MemorySampler {
  /** Takes a sample now (between sections, where a timer might not have fired). */
  sample(): void;
  stop(): MemoryFigure;
}

const MB = 1024 * 1024;

/** Starts sampling every `intervalMs` (the timer never keeps the process alive). */
export function startMemorySampler(intervalMs = 100): MemorySampler {
  let peakHeap = 0;
  const sample = () => {
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  };
  const timer = setInterval(sample, intervalMs);
  timer.unref();
  sample();
  return {
    sample,
    stop() {
      sample();
      clearInterval(timer);
      // resourceUsage().maxRSS is in kilobytes.
      return { maxRssMb: process.resourceUsage().maxRSS / 1024, peakHeapUsedMb: peakHeap / MB };
    },
  };
}
