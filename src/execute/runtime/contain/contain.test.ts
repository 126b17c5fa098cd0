/**
 * The containment pieces on their own: handler output is bounded and counted, kept only while
 * plugin code runs unless everything is kept, and `process.exit` under the trap throws, is
 * recorded as an escape, and is Node's own again once released.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { contain } from './contain.ts';
import { disregardEscapes, ExitCalled, takeEscape } from './escapes.ts';
import {
  HANDLER_OUTPUT_MAX_CHARS,
  inPluginCode,
  keepAll,
  keepOutput,
  takeOutput,
} from './handler-output.ts';

afterEach(() => {
  takeOutput();
  while (takeEscape());
});

describe('handler output', () => {
  it('keeps at most the bound, and counts what it did not keep', () => {
    keepOutput('x'.repeat(HANDLER_OUTPUT_MAX_CHARS - 2));
    keepOutput('abcdef');
    expect(takeOutput()).toBe(
      `${'x'.repeat(HANDLER_OUTPUT_MAX_CHARS - 2)}ab\n… 4 more characters not kept\n`,
    );
    expect(takeOutput()).toBe('');
  });

  it("keeps plugin code's writes, and every write while all are kept", () => {
    const own = process.stdout.write;
    const release = contain();
    try {
      inPluginCode(() => process.stdout.write('from the plugin\n'));
      expect(takeOutput()).toBe('from the plugin\n');
      const releaseAll = keepAll();
      process.stderr.write('from a timer\n');
      releaseAll();
      expect(takeOutput()).toBe('from a timer\n');
    } finally {
      release();
    }
    expect(process.stdout.write).toBe(own);
  });
});

describe('process.exit under the trap', () => {
  it('throws, is recorded even when caught, and is restored on release', () => {
    const exit = process.exit;
    const release = contain();
    try {
      expect(() => process.exit(3)).toThrow(ExitCalled);
      expect(takeEscape()).toMatchObject({ what: 'process.exit' });
      try {
        process.exit(4);
      } catch {
        // A handler that swallows it is still charged with it.
      }
      expect(takeEscape()?.thrown).toMatchObject({ code: 4 });
    } finally {
      release();
    }
    expect(process.exit).toBe(exit);
  });
});

describe('escapes the harness threw itself', () => {
  it('are not charged; any other rejection nobody handles is', async () => {
    const own = new Error('the harness gave up on this call');
    disregardEscapes((thrown) => thrown === own);
    const release = contain();
    try {
      void Promise.reject(own);
      await new Promise((resolve) => setImmediate(resolve));
      expect(takeEscape()).toBeUndefined();
      void Promise.reject(new Error('the handler left this'));
      await new Promise((resolve) => setImmediate(resolve));
      expect(takeEscape()).toMatchObject({ what: 'unhandled rejection', late: true });
    } finally {
      release();
    }
  });
});
