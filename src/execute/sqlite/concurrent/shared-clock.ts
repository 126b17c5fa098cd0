/**
 * The one clock a concurrent history is stamped with, readable from any thread.
 *
 * Invocation and completion are stamped inside the worker, right around the plugin call, so an
 * interval holds the call's effect as tightly as we can measure; the main thread stamps what it
 * decides itself (a lost request). Those readings are only comparable if every thread reads the
 * same clock. `performance.now()` is not such a clock: each worker thread has its own
 * `performance.timeOrigin` (its start time), and `timeOrigin + now()` mixes in the wall clock,
 * which NTP may step between two threads' starts. `process.hrtime` reads libuv's `uv_hrtime`,
 * the OS monotonic clock (CLOCK_MONOTONIC on Linux), which is process-wide: the same reading
 * in every thread, never stepped backwards.
 */

/**
 * Milliseconds on the process-wide monotonic clock (arbitrary origin, sub-microsecond
 * resolution). Comparable between the main thread and every worker of this process.
 */
export function sharedClockMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
