/**
 * JSON for what crosses between threads through shared memory (a run's steps, a part's journal)
 * instead of `postMessage`: plain JSON would turn NaN, ±Infinity and -0 into other values and
 * drop `undefined`, and the generator sends such values on purpose (a field present but
 * `undefined` is not a field missing). They are written tagged, `{"$n": "NaN"}` and so on, and
 * restored exactly; a structured clone would give the same values.
 */

/** The text for `value`, special values tagged. */
export function encodeTagged(value: unknown): string {
  return JSON.stringify(value, tag);
}

/** The value `encodeTagged` wrote, special values restored (an `undefined` field kept as one). */
export function decodeTagged(text: string): unknown {
  return restore(JSON.parse(text));
}

function tag(_key: string, value: unknown): unknown {
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return { $n: 'NaN' };
    if (value === Number.POSITIVE_INFINITY) return { $n: 'Infinity' };
    if (value === Number.NEGATIVE_INFINITY) return { $n: '-Infinity' };
    if (Object.is(value, -0)) return { $n: '-0' };
  }
  if (value === undefined) return { $n: 'undefined' };
  return value;
}

const SPECIAL: Readonly<Record<string, unknown>> = {
  NaN: Number.NaN,
  Infinity: Number.POSITIVE_INFINITY,
  '-Infinity': Number.NEGATIVE_INFINITY,
  '-0': -0,
  undefined: undefined,
};

function restore(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = restore(value[i]);
    return value;
  }
  const o = value as Record<string, unknown>;
  const n = o.$n;
  if (typeof n === 'string' && n in SPECIAL && Object.keys(o).length === 1) return SPECIAL[n];
  for (const k of Object.keys(o)) o[k] = restore(o[k]);
  return o;
}
