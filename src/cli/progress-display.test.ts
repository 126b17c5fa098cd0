/** The progress bar draws on a terminal and stays silent without one. */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { emptyCoverage } from '../report/coverage.ts';
import { createProgressDisplay } from './progress-display.ts';

function fakeTerminal() {
  const stream = new PassThrough() as PassThrough & { isTTY: boolean; columns: number };
  stream.isTTY = true;
  stream.columns = 160;
  const chunks: string[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c.toString()));
  return { stream: stream as unknown as NodeJS.WriteStream, chunks };
}

describe('createProgressDisplay', () => {
  it('draws runs, steps/s, event kinds, elapsed and ETA on a terminal', async () => {
    const { stream, chunks } = fakeTerminal();
    const display = createProgressDisplay(stream);
    const coverage = { ...emptyCoverage(), retry: 3, move: 1 };
    display.onProgress?.({ runs: 10, runsPlanned: 300, steps: 120, elapsedMs: 1000, coverage });
    display.stop();
    await new Promise((r) => setImmediate(r));
    const drawn = chunks.join('');
    expect(drawn).toContain('runs 10/300');
    expect(drawn).toContain('120 steps, 120/s');
    expect(drawn).toContain('elapsed');
    expect(drawn).toContain('2/14 event kinds seen');
    expect(drawn).toContain('ETA');
  });

  it('is silent when stderr is not a terminal', () => {
    const display = createProgressDisplay(undefined);
    expect(display.onProgress).toBeUndefined();
    display.stop();
  });
});
