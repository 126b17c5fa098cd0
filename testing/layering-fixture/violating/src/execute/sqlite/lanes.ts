export const laneCount = (lanes: readonly unknown[]): number => lanes.length;
