import type { Receipt } from '../model/receipt.ts';

export const sortedKeys = (receipts: readonly Receipt[]): string[] =>
  receipts.map((r) => r.key).sort();
