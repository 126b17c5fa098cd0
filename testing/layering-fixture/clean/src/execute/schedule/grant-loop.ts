export const grants = (lanes: readonly unknown[]): number => lanes.length;
