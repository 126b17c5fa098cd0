import { laneCount } from '../sqlite/lanes.ts';

export const pgLanes = (lanes: readonly unknown[]): number => laneCount(lanes);
