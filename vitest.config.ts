import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['./test/helpers/globalSetup.ts'],
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // Bounds, not speed checks: a loaded 2-core CI machine can be several times slower than a quiet one.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // FerretDB on SQLite serialises writes per database; a few files at a time keeps it quick.
    maxWorkers: 3,
  },
});
