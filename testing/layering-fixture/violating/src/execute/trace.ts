export interface Trace {
  calls: number;
}

export const emptyTrace = (): Trace => ({ calls: 0 });
