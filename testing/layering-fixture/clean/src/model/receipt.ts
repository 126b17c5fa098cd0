export type Key = string;

export interface Receipt {
  key: Key;
  amount: number;
}
