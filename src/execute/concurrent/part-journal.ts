/**
 * What a part of a concurrent run did, one JSON line per finished operation in its journal
 * (shared memory, `lane-board.ts`). The main thread reads every part's journal when the run ends,
 * and also when it had to terminate a part's worker for a hung call: the operations that part had
 * finished before still belong in the history, and a reply message would have died with the
 * worker. A line is published by storing the journal's new length after writing its bytes.
 *
 * Lines are `tagged-json.ts`, which keeps the numbers plain JSON would change.
 */
import type { ErrorData } from '../../errors.ts';
import type { Observed } from '../../model/outcome.ts';
import type { LaneBoardRef } from './lane-board.ts';
import { decodeTagged, encodeTagged } from './tagged-json.ts';

/** One finished operation of a part; times are `sharedClockMs()` readings. */
export type JournalEntry =
  | {
      readonly k: 'called';
      readonly step: number;
      readonly lane: number;
      readonly observed: Observed;
      readonly invokedAt: number;
      readonly completedAt: number;
    }
  | {
      readonly k: 'applied';
      readonly step: number;
      readonly lane: number;
      readonly invokedAt: number;
      readonly completedAt: number;
    }
  | { readonly k: 'unsent'; readonly step: number; readonly lane: number; readonly at: number }
  | {
      readonly k: 'failed';
      readonly step: number;
      readonly lane: number;
      readonly error: ErrorData;
    };

const HEADER = 8;

/** Appends `entry` to part `part`'s journal; false when it does not fit. */
export function writeEntry(ref: LaneBoardRef, part: number, entry: JournalEntry): boolean {
  const buffer = ref.journals[part] as SharedArrayBuffer;
  const length = new Int32Array(buffer, 0, 1);
  const used = Atomics.load(length, 0);
  const line = `${encodeTagged(entry)}\n`;
  const bytes = Buffer.from(buffer, HEADER);
  if (Buffer.byteLength(line) > bytes.length - used) return false;
  const written = bytes.write(line, used);
  Atomics.store(length, 0, used + written);
  return true;
}

/** Every entry part `part` published, in order. */
export function readEntries(ref: LaneBoardRef, part: number): JournalEntry[] {
  const buffer = ref.journals[part] as SharedArrayBuffer;
  const used = Atomics.load(new Int32Array(buffer, 0, 1), 0);
  if (used === 0) return [];
  const text = Buffer.from(buffer, HEADER, used).toString('utf8');
  return decodeTagged(`[${text.slice(0, -1).replaceAll('\n', ',')}]`) as JournalEntry[];
}
