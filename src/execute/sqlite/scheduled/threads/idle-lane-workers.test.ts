/**
 * A scheduled check on thread lanes returns its workers for the next check of the same handler;
 * `closeIdleLaneWorkers` ends them at once (the bench does, before it times the checker and the
 * mutants), and the process's threads go back to what they were.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkHandler } from '../../../../api/check-handler.ts';
import { closeIdleLaneWorkers, idleLaneWorkerThreads } from './lane-workers.ts';

const osThreads = () => readdirSync('/proc/self/task').length;

describe('idle lane workers', () => {
  it('are kept after a check on thread lanes, and gone once closed', async () => {
    const check = () => checkHandler({ mode: 'scheduled', lanes: 'threads', runs: 3, seed: 3 });
    // A first check starts whatever threads Node starts lazily, so the baseline is stable.
    expect((await check()).verdict).toBe('passed');
    await closeIdleLaneWorkers();
    const baseline = osThreads();
    expect((await check()).verdict).toBe('passed');
    expect(idleLaneWorkerThreads()).toBeGreaterThan(0);
    expect(osThreads()).toBeGreaterThan(baseline);
    await closeIdleLaneWorkers();
    expect(idleLaneWorkerThreads()).toBe(0);
    expect(osThreads()).toBe(baseline);
  });
});
