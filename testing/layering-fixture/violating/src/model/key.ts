import type { Receipt } from './receipt.ts';

export type Key = string;

export const keyOf = (receipt: Receipt): Key => receipt.key;
