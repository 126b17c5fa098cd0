import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { isReceiptcheckError, ReceiptcheckError } from './errors.ts';

describe('isReceiptcheckError', () => {
  it('knows its own errors, and those of another copy or realm by their shape', () => {
    expect(isReceiptcheckError(new ReceiptcheckError('E_BAD_OPTION', 'x'))).toBe(true);
    const foreign = runInNewContext(
      "const e = new Error('bad schema'); e.name = 'ReceiptcheckError'; e.code = 'E_BAD_SCHEMA'; e",
    );
    expect(foreign instanceof ReceiptcheckError).toBe(false);
    expect(isReceiptcheckError(foreign)).toBe(true);
  });

  it('is not fooled by other errors that carry a code', () => {
    const busy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    expect(isReceiptcheckError(busy)).toBe(false);
    expect(isReceiptcheckError(Object.assign(busy, { name: 'ReceiptcheckError' }))).toBe(false);
    expect(isReceiptcheckError(null)).toBe(false);
    expect(isReceiptcheckError('E_BAD_OPTION')).toBe(false);
  });
});
