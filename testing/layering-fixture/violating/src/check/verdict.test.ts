// Not a vitest test: a test file that imports upward, which the layer rules must allow.
import { emptyTrace } from '../execute/trace.ts';
import { verdict } from './verdict.ts';

export const noCallsNoReceipts = verdict(emptyTrace(), []);
