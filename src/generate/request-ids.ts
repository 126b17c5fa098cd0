/**
 * Fresh request ids drawn from the valid id classes (`input-classes.ts`). A new intent picks a
 * shape; the id is made from the client's mint counter, so clients still share the text pool
 * (alice's and bob's first ids are both `r0`, which is what makes key scoping matter), and it
 * is fresh: distinct, as a string, from every id the client used before. `R3` after `r3` is a
 * new intent, not a retry. Pure.
 */
import fc from 'fast-check';
import type { InputClass } from '../types/input-coverage.ts';
import type { ClassName } from './field-classes.ts';
import { requestIdClasses } from './input-classes.ts';

/** How a new intent's request id is made. `simple` (`r<n>`) is what shrinking goes to. */
export type IdShape =
  | 'simple'
  | 'length 1'
  | 'length 36'
  | 'length 37'
  | 'length 63'
  | 'length 64'
  | 'digits only'
  | 'edge'
  | 'mixed case'
  | 'case twin';

/** The valid request id class each shape but `simple` aims at. */
export const SHAPE_CLASS: Readonly<Record<Exclude<IdShape, 'simple'>, InputClass>> = {
  'length 1': 'requestId length 1',
  'length 36': 'requestId length 36',
  'length 37': 'requestId length 37',
  'length 63': 'requestId length 63',
  'length 64': 'requestId length 64',
  'digits only': 'requestId digits only',
  edge: 'requestId _ or - at an edge',
  'mixed case': 'requestId mixed case',
  'case twin': 'requestId differs only in case from an earlier one',
};

/** Every shape but `simple`. */
export const UNUSUAL_ID_SHAPES = Object.keys(SHAPE_CLASS) as Exclude<IdShape, 'simple'>[];

/**
 * A drawn id: its shape, and a small number that picks among the ids of that shape (which
 * earlier id a case twin copies, which character a one-character id is). Picking by the drawn
 * number rather than the mint count lets a counterexample shrink to the one id it needs.
 */
export interface IdChoice {
  readonly shape: IdShape;
  readonly pick: number;
}

/** The plain `r<n>` shape: the choice of every request the generator makes without drawing one. */
export const SIMPLE_ID: IdChoice = { shape: 'simple', pick: 0 };

/**
 * Mostly `simple`, one draw in `oneIn` another shape. Cross-shrinking lets any shape shrink to
 * `simple`, so counterexamples keep an unusual id only when the failure needs it.
 */
export function idChoiceArbitrary(oneIn = 4): fc.Arbitrary<IdChoice> {
  return fc.oneof(
    { withCrossShrink: true },
    { weight: oneIn - 1, arbitrary: fc.constant<IdChoice>({ shape: 'simple', pick: 0 }) },
    {
      weight: 1,
      // A case twin needs an earlier id of the same client, so it is drawn more often.
      arbitrary: fc.record({
        shape: fc.constantFrom(...UNUSUAL_ID_SHAPES, 'case twin', 'case twin'),
        pick: fc.nat(7),
      }),
    },
  );
}

/** Single characters, ordered so that the first few cover a letter of each case, a digit, `-` and `_`. */
const ONE_CHARS = 'aZ7-_bY8cX9dW0eV1fU2gT3hS4iR5jQ6kPlOmNnMoLpKqJrIsHtGuFvEwDxCyBzA';

/**
 * The id for a new intent of shape `choice.shape`, with mint number `n`; `sent` are the valid
 * ids the client sent before, `used` every id it minted. Undefined when the shape cannot make a
 * fresh id here (no earlier id to twin) or makes one in a class of `excluded`: the caller then
 * falls back to `r<n>`.
 */
export function shapedId(
  choice: IdChoice,
  n: number,
  sent: readonly string[],
  used: ReadonlySet<string>,
  excluded: ReadonlySet<ClassName>,
): string | undefined {
  const id = render(choice, n, sent);
  if (id === undefined || used.has(id) || sent.includes(id)) return undefined;
  // Classifying costs more than the rest of a fresh id: only when some class is excluded.
  if (excluded.size > 0 && requestIdClasses(id, sent).some((c) => excluded.has(c)))
    return undefined;
  return id;
}

function render(choice: IdChoice, n: number, sent: readonly string[]): string | undefined {
  switch (choice.shape) {
    case 'simple':
      return `r${n}`;
    case 'length 1':
      return ONE_CHARS[(n + choice.pick) % ONE_CHARS.length];
    case 'length 36':
    case 'length 37':
    case 'length 63':
    case 'length 64': {
      // The mint number first, so long ids tell apart at a glance in a counterexample.
      const length = Number(choice.shape.slice('length '.length));
      return `r${n}-`.padEnd(length, 'x');
    }
    case 'digits only':
      // A leading zero: a handler that turns the id into a number loses it.
      return `0${n}`;
    case 'edge':
      return [`-r${n}`, `r${n}_`, `_r${n}`, `r${n}-`][(n + choice.pick) % 4];
    case 'mixed case':
      return `aB${n}`;
    case 'case twin': {
      const lettered = sent.filter((s) => /[a-z]/i.test(s));
      const original = lettered[choice.pick % Math.max(1, lettered.length)];
      return original && flipCase(original);
    }
  }
}

function flipCase(s: string): string {
  return s.replace(/[a-z]/gi, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
}
