/**
 * A statement's bound parameters as short text, for the trace a report draws (`TraceEntry.params`):
 * plain strings survive a thread hand-off and a case file, where a BigInt or a Buffer would not.
 */

/** Longest text kept of one parameter. */
const PARAM_CHARS = 200;

/** The parameters as text, or undefined when there are none. */
export function paramText(args: readonly unknown[] | undefined): string[] | undefined {
  if (!args || args.length === 0) return undefined;
  // A loop, not flatMap: this runs for every statement of every run.
  const texts: string[] = [];
  for (const a of args)
    if (Array.isArray(a)) for (const x of a) texts.push(one(x));
    else texts.push(one(a));
  return texts;
}

function one(value: unknown): string {
  // The usual parameter: a finite number's text is what JSON.stringify gives, and never long.
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
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
