/**
 * A statement's bound parameters as short text, for the trace a report draws (`TraceEntry.params`):
 * plain strings survive a thread hand-off and a case file, where a BigInt or a Buffer would not.
 */

/** Longest text kept of one parameter. */
const PARAM_CHARS = 200;

/** The parameters as text, or undefined when there are none. */
export function paramText(args: readonly unknown[] | undefined): string[] | undefined {
  if (!args || args.length === 0) return undefined;
  return args.flatMap((a) => (Array.isArray(a) ? a.map(one) : [one(a)]));
}

function one(value: unknown): string {
  const text = describe(value);
  return text.length > PARAM_CHARS ? `${text.slice(0, PARAM_CHARS - 1)}…` : text;
}

function describe(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`;
  if (value instanceof Uint8Array) return `<blob of ${value.length} bytes>`;
  if (value === undefined) return 'undefined';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
