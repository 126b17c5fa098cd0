import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that spend minutes in processes of their own (the packed package's install compiles
 * better-sqlite3) start first, so the rest of the suite runs beside them rather than after them.
 * Without this, a clean clone (no timings cached yet) orders files by size.
 */
const LONG_FIRST = ['src/package.test.ts'];

class LongFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONG_FIRST.findIndex((name) => f.moduleId.endsWith(`/${name}`));
      return i < 0 ? LONG_FIRST.length : i;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

/**
 * Tests of pure logic (the model, the judge, generation, reports): no process, thread, database
 * or global state of their own, so they share one module graph per worker (`isolate: false`)
 * instead of each file importing the code afresh, which took most of their time.
 */
const PURE = ['src/model', 'src/check', 'src/report', 'src/generate', 'src/lib'].map(
  (dir) => `${dir}/**/*.test.ts`,
);

/**
 * Property tests and scenarios; forks keep better-sqlite3's native module out of shared threads.
 * Two files at a time even on two cores (vitest's default there is one): much of a file's time is
 * spent waiting on child processes, worker threads and PostgreSQL. One PostgreSQL server serves
 * the whole run (`testing/global-postgres.ts`); the pure project needs none.
 */
export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    sequence: { sequencer: LongFirst },
    setupFiles: ['./vitest.setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'pure', include: PURE, isolate: false } },
      {
        extends: true,
        test: {
          name: 'world',
          include: [
            'properties/**/*.test.ts',
            'scenarios/**/*.test.ts',
            'src/**/*.test.ts',
            'testing/*.test.ts',
          ],
          exclude: PURE,
          globalSetup: ['./testing/global-postgres.ts', './testing/global-build.ts'],
        },
      },
    ],
  },
});
