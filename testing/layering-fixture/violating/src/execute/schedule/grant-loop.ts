import { laneCount } from '../sqlite/lanes.ts';

export const grants = (lanes: readonly unknown[]): number => laneCount(lanes);
