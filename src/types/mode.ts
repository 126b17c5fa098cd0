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

/**
 * What a check is asked to run: one mode, or `auto`, which explores every mode of `AUTO_MODES`
 * in turn within the one budget, so a default run sees races without relying on thread timing.
 */
export type ModeChoice = Mode | 'auto';

/** Every mode choice, for validation and help text. */
export const MODE_CHOICES: readonly ModeChoice[] = ['auto', ...MODES];

/** What `auto` explores, in order: the fast exact mode first, then the deterministic race finder. */
export const AUTO_MODES: readonly Mode[] = ['sequential', 'scheduled'];

/** What `auto` explores for a described service: scheduled mode cannot reach its statements. */
export const SERVICE_AUTO_MODES: readonly Mode[] = ['sequential', 'concurrent'];

/**
 * Each auto mode's share of the runs, by weight: scheduled mode gets two thirds, since a race
 * needs its group and the schedule that opens it, while the sequential bugs (inputs, the
 * precondition's edge) fall within a few dozen runs.
 */
export const AUTO_SHARES: Readonly<Partial<Record<Mode, number>>> = { sequential: 1, scheduled: 2 };
