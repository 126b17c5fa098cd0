import type { Key } from './key.ts';

export interface Receipt {
  key: Key;
  amount: number;
}
