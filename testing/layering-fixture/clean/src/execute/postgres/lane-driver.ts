import { grants } from '../schedule/grant-loop.ts';

export const pgLanes = (lanes: readonly unknown[]): number => grants(lanes);
