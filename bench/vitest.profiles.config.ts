import { defineConfig } from 'vitest/config';

/** `npx vitest run --config bench/vitest.profiles.config.ts`: the client-profile measurements (not part of npm test). */
export default defineConfig({
  test: {
    include: ['bench/profiles.measure.ts'],
    testTimeout: 1_800_000,
    hookTimeout: 300_000,
    pool: 'forks',
  },
});
