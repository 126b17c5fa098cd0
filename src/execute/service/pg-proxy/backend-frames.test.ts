/**
 * The server's bytes cut into whole messages however the socket split them, and an ErrorResponse
 * written by the proxy read back by node-postgres's own parser with the fields it was given.
 */
import type { DatabaseError } from 'pg-protocol/dist/messages.js';
import { Parser } from 'pg-protocol/dist/parser.js';
import { describe, expect, it } from 'vitest';
import { BackendFramer, errorResponse } from './backend-frames.ts';

/** A ReadyForQuery message (idle). */
const READY = Buffer.from([0x5a, 0, 0, 0, 5, 0x49]);

describe('backend frames', () => {
  it('cuts messages split anywhere, and keeps a partial one for the next chunk', () => {
    const error = errorResponse({ code: '40P01', message: 'deadlock detected' });
    const bytes = Buffer.concat([READY, error, READY]);
    for (let cut = 1; cut < bytes.length; cut++) {
      const framer = new BackendFramer();
      const frames = [...framer.push(bytes.subarray(0, cut)), ...framer.push(bytes.subarray(cut))];
      expect(frames.map((f) => f.toString('hex'))).toEqual(
        [READY, error, READY].map((f) => f.toString('hex')),
      );
    }
  });

  it('writes an ErrorResponse that node-postgres reads with the given fields', () => {
    const heard: DatabaseError[] = [];
    new Parser().parse(
      errorResponse({ code: '40P01', message: 'deadlock detected', detail: 'a cycle' }),
      (m) => heard.push(m as DatabaseError),
    );
    expect(heard).toMatchObject([
      {
        name: 'error',
        severity: 'ERROR',
        code: '40P01',
        message: 'deadlock detected',
        detail: 'a cycle',
      },
    ]);
  });
});
