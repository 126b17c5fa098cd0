/** How far the generator moves the clock, for a plugin that declares an expiry. Pure. */

/**
 * How far one clock advance moves time under a declared expiry of `lifetime` ms: about 2/5 of it
 * (two stay within it, three pass it) or 1.5 times it. No run of consecutive advances adds up to
 * the lifetime itself, so a run never lands on the boundary, where a library's own rounding
 * (seconds, `<` or `<=`) and the wall clock's drift during a call would decide.
 */
export function clockStep(lifetime: number, long: boolean): number {
  return long ? Math.round(lifetime * 1.5) : Math.max(1, Math.round((lifetime * 2) / 5));
}
