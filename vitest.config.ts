import { defineConfig } from 'vitest/config';

/** Property tests and scenarios; forks keep better-sqlite3's native module out of shared threads. */
export default defineConfig({
  test: {
    include: [
      'properties/**/*.test.ts',
      'scenarios/**/*.test.ts',
      'src/**/*.test.ts',
      'testing/*.test.ts',
    ],
    pool: 'forks',
    setupFiles: ['./vitest.setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
