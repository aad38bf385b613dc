import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Builds dist/ once (fixture plugins run as compiled child processes) unless `npm test` already did.
    globalSetup: ['test/global-setup.ts'],
    // Integration tests spawn real child processes; give them room on a 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
