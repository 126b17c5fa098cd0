/**
 * What one worker has done of its share of a run (`run-plan.ts`), in shared memory: which item
 * is running and since when (or that it is waiting for its next phase), and each finished item's
 * reply as one line of JSON. The main thread reads the first to stop an item that outlives the
 * call budget (the budget is per call, not per run), and the replies when it had to terminate
 * the worker for that: the items finished before still belong in the history, and the script's
 * reply message died with the worker. The normal path never reads the replies here; they come
 * back in the script's reply.
 *
 * Layout: Int32 cells `entries` (lines published), `bytes` (used), `item` (index in progress, -1
 * while waiting), then the instant that item started (BigInt64, ns on the shared clock), then the
 * lines. A line is published by storing the new counts after writing its bytes; one writer (the
 * worker), and the reader reads only once the writer is idle or gone.
 *
 * JSON would turn NaN, ±Infinity and -0 into other values and drop `undefined`, which a handler's
 * outcome may hold: they are written tagged, `{"$n": "NaN"}` and so on, and restored exactly.
 */
import type { WorkerReply } from './protocol.ts';

const ENTRIES = 0;
const BYTES = 1;
const ITEM = 2;
const STARTED_BYTE = 16;
const HEADER_BYTES = 24;

/** Room for a worker's replies in one run: a typical reply is 100–300 bytes, a stack a few KB. */
export const JOURNAL_BYTES = 64 * 1024;

/** A fresh journal whose first item counts as started now (queueing is part of its budget). */
export function createJournal(): SharedArrayBuffer {
  const buffer = new SharedArrayBuffer(HEADER_BYTES + JOURNAL_BYTES);
  new BigInt64Array(buffer, STARTED_BYTE, 1)[0] = process.hrtime.bigint();
  return buffer;
}

/** Worker side: item `index` starts now. */
export function startItem(journal: SharedArrayBuffer, index: number): void {
  Atomics.store(new BigInt64Array(journal, STARTED_BYTE, 1), 0, process.hrtime.bigint());
  Atomics.store(new Int32Array(journal, 0, 3), ITEM, index);
}

/** Worker side: no item is in progress; the worker waits for its next phase. */
export function startWaiting(journal: SharedArrayBuffer): void {
  Atomics.store(new Int32Array(journal, 0, 3), ITEM, -1);
}

/** Whether the worker is waiting for a phase rather than running an item. */
export function isWaiting(journal: SharedArrayBuffer): boolean {
  return Atomics.load(new Int32Array(journal, 0, 3), ITEM) === -1;
}

/** When the item in progress started, in `sharedClockMs()` terms. */
export function itemStartedMs(journal: SharedArrayBuffer): number {
  return Number(Atomics.load(new BigInt64Array(journal, STARTED_BYTE, 1), 0)) / 1e6;
}

/** Worker side: appends a finished item's reply; false when it does not fit (nothing written). */
export function writeReply(journal: SharedArrayBuffer, reply: WorkerReply): boolean {
  const cells = new Int32Array(journal, 0, 3);
  const used = Atomics.load(cells, BYTES);
  const line = `${JSON.stringify(reply, tag)}\n`;
  const bytes = Buffer.from(journal, HEADER_BYTES);
  if (Buffer.byteLength(line) > bytes.length - used) return false;
  const written = bytes.write(line, used);
  Atomics.store(cells, BYTES, used + written);
  Atomics.add(cells, ENTRIES, 1);
  return true;
}

/** Every reply the journal holds, in item order. */
export function readReplies(journal: SharedArrayBuffer): WorkerReply[] {
  const used = Atomics.load(new Int32Array(journal, 0, 3), BYTES);
  if (used === 0) return [];
  const text = Buffer.from(journal, HEADER_BYTES, used).toString('utf8');
  return text
    .slice(0, -1)
    .split('\n')
    .map((line) => restore(JSON.parse(line)) as WorkerReply);
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
