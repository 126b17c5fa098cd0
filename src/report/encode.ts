/**
 * JSON that keeps every value a generator can send: NaN, ±Infinity, -0 and `undefined` would
 * otherwise turn into `null` or vanish, and a replay would send something else. Such values are
 * written as `{"$number": "NaN"}` (or `"Infinity"`, `"-Infinity"`, `"-0"`) and `{"$undefined": true}`.
 */

/** JSON.stringify with the special numbers kept. */
export function encodeJson(value: unknown, indent?: number): string {
  return JSON.stringify(tag(value), null, indent);
}

/** JSON.parse that restores what `encodeJson` tagged. */
export function decodeJson(text: string): unknown {
  return untag(JSON.parse(text));
}

function tag(value: unknown): unknown {
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return { $number: 'NaN' };
    if (value === Number.POSITIVE_INFINITY) return { $number: 'Infinity' };
    if (value === Number.NEGATIVE_INFINITY) return { $number: '-Infinity' };
    if (Object.is(value, -0)) return { $number: '-0' };
    return value;
  }
  if (value === undefined) return { $undefined: true };
  if (Array.isArray(value)) return value.map(tag);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = tag(v);
    return out;
  }
  return value;
}

function untag(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(untag);
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const keys = Object.keys(o);
    if (keys.length === 1 && typeof o.$number === 'string')
      return Number(o.$number === '-0' ? -0 : o.$number);
    if (keys.length === 1 && o.$undefined === true) return undefined;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(o)) out[k] = untag(v);
    return out;
  }
  return value;
}
