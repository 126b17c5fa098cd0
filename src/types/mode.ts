/**
 * The execution modes and scheduled mode's lane carriers, named once at the bottom so that every
 * layer (options, runners, reports) can speak of them without importing the layer that runs them.
 */

/** How calls are executed. */
export type Mode = 'sequential' | 'concurrent' | 'scheduled';

/** Every mode, for validation and help text. */
export const MODES: readonly Mode[] = ['sequential', 'concurrent', 'scheduled'];

/** How scheduled mode's lanes are carried out: chosen from the handler (`auto`), or forced. */
export const LANE_MODES = ['auto', 'inline', 'threads'] as const;

/** One of `LANE_MODES`. */
export type LaneMode = (typeof LANE_MODES)[number];
