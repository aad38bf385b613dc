import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Builds dist/ once (fixture plugins run as compiled child processes) unless `npm test` already did.
    globalSetup: ['test/global-setup.ts'],
    // Each file its own PINCER_STATE_DIR, so files running at once never share plugin data.
    setupFiles: ['test/setup/isolated-state.ts'],
    // Integration tests spawn real child processes; give them room on a 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most test time is waiting on child processes, engines and timers, not CPU: three files at
    // once on a 2-core machine took the suite from 842 s (one at a time, vitest's default there)
    // to 456 s, using 1.3 cores.
    maxWorkers: 3,
  },
});
