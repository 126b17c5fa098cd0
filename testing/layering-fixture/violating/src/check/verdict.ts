import type { Trace } from '../execute/trace.ts';
import type { Receipt } from '../model/receipt.ts';

export const verdict = (trace: Trace, receipts: readonly Receipt[]): boolean =>
  trace.calls >= receipts.length;
