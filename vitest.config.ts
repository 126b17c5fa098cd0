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
 * Property tests and scenarios; forks keep better-sqlite3's native module out of shared threads.
 * Two files at a time even on two cores (vitest's default there is one): much of a file's time is
 * spent waiting on child processes, worker threads and PostgreSQL. One PostgreSQL server serves
 * the whole run (`testing/global-postgres.ts`).
 */
export default defineConfig({
  test: {
    include: [
      'properties/**/*.test.ts',
      'scenarios/**/*.test.ts',
      'src/**/*.test.ts',
      'testing/*.test.ts',
    ],
    pool: 'forks',
    maxWorkers: 2,
    sequence: { sequencer: LongFirst },
    globalSetup: ['./testing/global-postgres.ts'],
    setupFiles: ['./vitest.setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
