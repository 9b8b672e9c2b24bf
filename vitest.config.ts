import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['./test/helpers/globalSetup.ts'],
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // FerretDB on SQLite serialises writes per database; a few files at a time keeps it quick.
    maxWorkers: 3,
  },
});
