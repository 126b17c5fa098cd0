/**
 * Flag value parsers for commander: they check only the syntax (is it a number, is it `i/n`) and
 * throw commander's `InvalidArgumentError`, which the CLI reports as `E_BAD_OPTION`. Ranges and
 * defaults are checked once, in `resolveOptions`, for the CLI and the API alike.
 */

import { InvalidArgumentError } from 'commander';
import {
  LANE_MODES,
  type LaneMode,
  MODE_CHOICES,
  MODES,
  type Mode,
  type ModeChoice,
} from '../types/mode.ts';

/** An integer, written in decimal: `300`, `-1`. */
export function parseInteger(value: string): number {
  if (!/^[+-]?\d+$/.test(value.trim())) throw new InvalidArgumentError('expected an integer.');
  return Number(value);
}

/** A decimal number: `2`, `0.5`. */
export function parseNumber(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n))
    throw new InvalidArgumentError('expected a number.');
  return n;
}

/** `i/n`, e.g. `2/4`: run the second of four shards. */
export function parseShard(value: string): { index: number; count: number } {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(value);
  if (!m) throw new InvalidArgumentError('expected i/n, for example 2/4.');
  return { index: Number(m[1]), count: Number(m[2]) };
}

/**
 * `value` when it is one of `choices`; else an error listing them, with the nearest as a
 * suggestion when it is a slip of two letters or fewer (`sequental`), as commander's own
 * "Did you mean" for an option or a command.
 */
export function oneOf<T extends string>(value: string, choices: readonly T[]): T {
  if ((choices as readonly string[]).includes(value)) return value as T;
  const [nearest] = [...choices].sort((a, b) => distance(value, a) - distance(value, b));
  const hint =
    nearest !== undefined && distance(value, nearest) <= 2 ? ` (Did you mean ${nearest}?)` : '';
  throw new InvalidArgumentError(`expected one of ${choices.join(', ')}.${hint}`);
}

/** Levenshtein distance: the fewest one-letter insertions, deletions or changes from a to b. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(
        (row[j] as number) + 1,
        (next[j - 1] as number) + 1,
        (row[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    row = next;
  }
  return row[b.length] as number;
}

/** `--lanes`: one of scheduled mode's lane modes. */
export function parseLanes(value: string): LaneMode {
  return oneOf(value, LANE_MODES);
}

/** One of the execution modes. */
export function parseMode(value: string): Mode {
  return oneOf(value, MODES);
}

/** `run`'s mode: one of the modes, or `auto` (sequential, then scheduled, in one budget). */
export function parseModeChoice(value: string): ModeChoice {
  return oneOf(value, MODE_CHOICES);
}

/** Seeds: a range `1..10`, a list `1,4,9`, or one seed `7`. */
export function parseSeeds(value: string): number[] {
  const range = /^\s*([+-]?\d+)\s*\.\.\s*([+-]?\d+)\s*$/.exec(value);
  if (range) {
    const [from, to] = [Number(range[1]), Number(range[2])];
    if (to < from) throw new InvalidArgumentError(`expected a range low..high (got ${value}).`);
    if (to - from >= 1_000) throw new InvalidArgumentError('expected at most 1000 seeds.');
    return Array.from({ length: to - from + 1 }, (_, i) => from + i);
  }
  if (!/^\s*[+-]?\d+(\s*,\s*[+-]?\d+)*\s*$/.test(value))
    throw new InvalidArgumentError('expected seeds as a range 1..10 or a list 1,4,9.');
  return value.split(',').map((s) => Number(s.trim()));
}
