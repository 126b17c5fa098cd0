/**
 * Property tests run from a fixed fast-check seed, so CI is reproducible and a red run can be
 * replayed. Set RECEIPTCHECK_TEST_SEED to another integer to explore, or to `random` to let
 * fast-check pick (it prints the seed of any failure).
 *
 * PostgreSQL: the run's one server (`testing/global-postgres.ts`) becomes this file's
 * `RECEIPTCHECK_DATABASE_URL`, for the runners here and the commands the tests start. The run's
 * build of the sources (`testing/global-build.ts`) becomes `RECEIPTCHECK_CHECKOUT_BUILD`, which
 * worker threads and commands started from the checkout load the sources from.
 */
import fc from 'fast-check';
import { inject } from 'vitest';
import { CHECKOUT_BUILD_ENV } from './src/execute/workers/checkout-loader.mjs';

const seed = process.env.RECEIPTCHECK_TEST_SEED ?? '42';
if (seed !== 'random') fc.configureGlobal({ seed: Number(seed) });

// The pure project starts no server and builds nothing, so nothing is provided there.
const postgresUrl = inject('postgresUrl');
if (postgresUrl) process.env.RECEIPTCHECK_DATABASE_URL = postgresUrl;
const built = inject('builtPackage');
if (built) process.env[CHECKOUT_BUILD_ENV] = built;
