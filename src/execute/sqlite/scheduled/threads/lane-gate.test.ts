/**
 * The worker's side of the hand-off does not trust a wake-up: it goes on only when the grant
 * count moved, so a notify with no grant behind it (or a stale one) parks it again. And every
 * report is stamped with its command and its number within it.
 */
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { Grant, Slot } from '../protocol.ts';
import { LaneGate } from './lane-gate.ts';

const PLAN = { parkAtStart: false, parkAtReply: false, crashAt: -1, faultAt: -1 };

/** A thread that wakes the slot twice with no grant, then grants `grant` with a moved count. */
function granter(slot: SharedArrayBuffer, grant: number): Worker {
  const code = `
    const { workerData } = require('node:worker_threads');
    const s = new Int32Array(workerData.slot);
    const pause = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 30);
    pause();
    Atomics.store(s, ${Slot.grant}, workerData.grant); Atomics.notify(s, ${Slot.count});
    pause();
    Atomics.notify(s, ${Slot.count});
    pause();
    Atomics.add(s, ${Slot.count}, 1); Atomics.notify(s, ${Slot.count});
  `;
  return new Worker(code, { eval: true, workerData: { slot, grant } });
}

describe('lane gate', () => {
  it('parks until the grant count moves, whatever wakes it, and stamps its reports', async () => {
    const { port1, port2 } = new MessageChannel();
    const slot = new SharedArrayBuffer(4 * Slot.size);
    const gate = new LaneGate(port2, slot, new SharedArrayBuffer(4));
    gate.reset(7, PLAN);
    const thread = granter(slot, Grant.fault);
    const started = performance.now();
    // Blocks this thread: the granter's first two wake-ups must not let it through.
    expect(gate.statement('UPDATE t SET x = 1', true)).toBe(Grant.fault);
    expect(performance.now() - started).toBeGreaterThanOrEqual(60);
    gate.done(false);
    const reports = [receiveMessageOnPort(port1)?.message, receiveMessageOnPort(port1)?.message];
    expect(reports).toMatchObject([
      { type: 'statement', sql: 'UPDATE t SET x = 1', command: 7, seq: 0 },
      { type: 'done', command: 7, seq: 1 },
    ]);
    await thread.terminate();
    port1.close();
  });
});
