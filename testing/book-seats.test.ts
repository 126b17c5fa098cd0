/**
 * A user's own tool, `book-seats` (fields from zod, a `sold-out` precondition, bookings whose ids
 * the database assigns), written from the README: its correct handler holds in every mode, and
 * the same handler with its seats-left check read before the write transaction (check-then-act)
 * is caught in scheduled mode, where the statement-level scheduler puts two bookings side by side.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkHandler } from '../src/api/check-handler.ts';

const handler = (name: string) =>
  fileURLToPath(new URL(`./handlers/book-seats/${name}.ts`, import.meta.url));

describe('a user-written book-seats tool', () => {
  it.each([
    ['sequential', 300],
    ['scheduled', 300],
    ['concurrent', 60],
  ] as const)('the correct handler holds in %s mode', async (mode, runs) => {
    const r = await checkHandler({ handler: handler('handler'), mode, runs, seed: 1 });
    expect(r.counterexample?.failures ?? []).toEqual([]);
    expect(r.verdict).toBe('passed');
  });

  it('check-then-act is caught in scheduled mode', async () => {
    const r = await checkHandler({
      handler: handler('check-then-act'),
      mode: 'scheduled',
      seed: 1,
    });
    expect(r.verdict).toBe('failed');
  });
});
