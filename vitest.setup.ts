/**
 * Property tests run from a fixed fast-check seed, so CI is reproducible and a red run can be
 * replayed. Set RECEIPTCHECK_TEST_SEED to another integer to explore, or to `random` to let
 * fast-check pick (it prints the seed of any failure).
 */
import fc from 'fast-check';

const seed = process.env.RECEIPTCHECK_TEST_SEED ?? '42';
if (seed !== 'random') fc.configureGlobal({ seed: Number(seed) });
