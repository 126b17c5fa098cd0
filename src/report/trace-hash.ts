/**
 * A stable fingerprint of a scheduled run: the hash of every grant (step, lane, point, grant,
 * statement text, result). Two runs with the same hash interleaved the same statements the same
 * way, which is what "replays the same failure 100 times out of 100" is measured by. Pure.
 */
import type { TraceEntry } from '../types/scheduled-trace.ts';

/** The canonical text of one entry; the hash covers exactly this. */
export function entryLine(e: TraceEntry): string {
  return [e.step, e.lane, e.point, e.grant, e.sql ?? '', e.result ?? '', e.durable ? 'd' : ''].join(
    '\u001f',
  );
}

/** A 64-bit hex hash (two independent 32-bit FNV-1a lanes) of the entries, in order. */
export function traceHash(entries: readonly TraceEntry[]): string {
  return hashText(entries.map(entryLine).join('\n'));
}

/** Two FNV-1a 32-bit hashes with different offsets, as 16 hex digits. Stable across platforms. */
export function hashText(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 15);
  }
  return hex(a) + hex(b);
}

function hex(n: number): string {
  return (n >>> 0).toString(16).padStart(8, '0');
}
