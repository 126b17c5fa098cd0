/**
 * A worker slot's mailbox for concurrent runs: shared memory through which the main thread hands
 * a part of a run to a worker that is already waiting for it, and gets the part's end back,
 * with no `postMessage` and no thread pool bookkeeping (a piscina task cost the main thread
 * 110-145 µs of submission and 200-240 µs round trip, measured on the 2-core VM; a run has one
 * to five parts). Both sides wait with `Atomics.waitAsync`, so neither blocks its event loop:
 * an async handler's I/O and timers still run on the worker.
 *
 * Layout: Int32 cells `job` (sequence number of the last job posted), `done` (of the last one
 * finished), `quit`, `jobBytes`, `replyBytes`; then the job's text, then the reply's
 * (`tagged-json.ts`).
 */
import { decodeTagged, encodeTagged } from './tagged-json.ts';

/** `Atomics.waitAsync` (Node 16+; TypeScript types it only from lib es2024 on). */
const waitAsync = (
  Atomics as unknown as {
    waitAsync(
      cells: Int32Array,
      index: number,
      value: number,
    ): { async: false; value: string } | { async: true; value: Promise<string> };
  }
).waitAsync;

const JOB = 0;
const DONE = 1;
const QUIT = 2;
const JOB_BYTES = 3;
const REPLY_BYTES = 4;
const HEADER = 64;
/** `quit` once the main thread gave up on a reply. */
const ABANDONED = 2;
/** Room for a job's text (the run's steps), in bytes; reserved, not touched until written. */
export const JOB_ROOM = 4 * 1024 * 1024;
/** Room for a reply's text (the part's end and what plugin code printed), in bytes. */
const REPLY_ROOM = 1024 * 1024;

/** A new mailbox. */
export function createMailbox(): SharedArrayBuffer {
  return new SharedArrayBuffer(HEADER + JOB_ROOM + REPLY_ROOM);
}

function cells(box: SharedArrayBuffer): Int32Array {
  return new Int32Array(box, 0, 8);
}

/** Main thread: posts `job`; returns its sequence number. Throws when it does not fit. */
export function postJob(box: SharedArrayBuffer, job: unknown): number {
  const c = cells(box);
  const text = encodeTagged(job);
  if (Buffer.byteLength(text) > JOB_ROOM)
    throw new RangeError(`a concurrent run's steps take more than ${JOB_ROOM} bytes`);
  Atomics.store(c, JOB_BYTES, Buffer.from(box, HEADER, JOB_ROOM).write(text));
  const seq = Atomics.load(c, JOB) + 1;
  Atomics.store(c, JOB, seq);
  Atomics.notify(c, JOB);
  return seq;
}

/** Main thread: asks the worker to stop serving. */
export function postQuit(box: SharedArrayBuffer): void {
  const c = cells(box);
  Atomics.store(c, QUIT, 1);
  Atomics.add(c, JOB, 1);
  Atomics.notify(c, JOB);
}

/** Main thread: before a new serve task on `box`; the job number it is to serve after. */
export function reopen(box: SharedArrayBuffer): number {
  const c = cells(box);
  Atomics.store(c, QUIT, 0);
  return Atomics.load(c, JOB);
}

/** Main thread: ends a `replyTo` wait whose worker is gone (it resolves to undefined). */
export function abandonReply(box: SharedArrayBuffer): void {
  const c = cells(box);
  Atomics.store(c, QUIT, ABANDONED);
  Atomics.notify(c, DONE);
}

/** Main thread: resolves once job `seq` is done, to its reply (undefined once abandoned). */
export async function replyTo(box: SharedArrayBuffer, seq: number): Promise<unknown> {
  const c = cells(box);
  for (;;) {
    const seen = Atomics.load(c, DONE);
    if (seen === seq) break;
    if (Atomics.load(c, QUIT) === ABANDONED) return undefined;
    const waited = waitAsync(c, DONE, seen);
    if (waited.async) await waited.value;
  }
  const bytes = Atomics.load(c, REPLY_BYTES);
  return decodeTagged(Buffer.from(box, HEADER + JOB_ROOM, bytes).toString('utf8'));
}

/** Worker: waits for the job after `last`; undefined when asked to quit. */
export async function nextJob(
  box: SharedArrayBuffer,
  last: number,
): Promise<{ readonly seq: number; readonly job: unknown } | undefined> {
  const c = cells(box);
  for (;;) {
    const seq = Atomics.load(c, JOB);
    if (seq !== last) {
      if (Atomics.load(c, QUIT) !== 0) return undefined;
      const text = Buffer.from(box, HEADER, Atomics.load(c, JOB_BYTES)).toString('utf8');
      return { seq, job: decodeTagged(text) };
    }
    const waited = waitAsync(c, JOB, last);
    if (waited.async) await waited.value;
  }
}

/** Worker: the reply to job `seq` (cut to fit: it only carries a flag and printed output). */
export function postReply(box: SharedArrayBuffer, seq: number, reply: unknown): void {
  const c = cells(box);
  let text = encodeTagged(reply);
  if (Buffer.byteLength(text) > REPLY_ROOM)
    text = encodeTagged({ ...(reply as object), output: '' });
  Atomics.store(c, REPLY_BYTES, Buffer.from(box, HEADER + JOB_ROOM, REPLY_ROOM).write(text));
  Atomics.store(c, DONE, seq);
  Atomics.notify(c, DONE);
}
