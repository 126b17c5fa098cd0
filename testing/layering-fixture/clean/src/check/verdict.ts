import type { Receipt } from '../model/receipt.ts';

export const verdict = (calls: number, receipts: readonly Receipt[]): boolean =>
  calls >= receipts.length;
