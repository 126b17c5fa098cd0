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

/** One of the execution modes. */
/** `--lanes`: one of scheduled mode's lane modes. */
export function parseLanes(value: string): LaneMode {
  if (!(LANE_MODES as readonly string[]).includes(value))
    throw new InvalidArgumentError(`expected one of ${LANE_MODES.join(', ')}.`);
  return value as LaneMode;
}

export function parseMode(value: string): Mode {
  if (!(MODES as readonly string[]).includes(value))
    throw new InvalidArgumentError(`expected one of ${MODES.join(', ')}.`);
  return value as Mode;
}

/** `run`'s mode: one of the modes, or `auto` (sequential, then scheduled, in one budget). */
export function parseModeChoice(value: string): ModeChoice {
  if (!(MODE_CHOICES as readonly string[]).includes(value))
    throw new InvalidArgumentError(`expected one of ${MODE_CHOICES.join(', ')}.`);
  return value as ModeChoice;
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
