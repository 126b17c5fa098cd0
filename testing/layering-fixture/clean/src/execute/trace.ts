import { verdict } from '../check/verdict.ts';
import type { Receipt } from '../model/receipt.ts';

export const passes = (calls: number, receipts: readonly Receipt[]): boolean =>
  verdict(calls, receipts);
