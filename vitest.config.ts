import { defineConfig } from 'vitest/config';

/**
 * Tests that time the server while it is under attack (a request answered within 100 ms while a program runs on,
 * a program stopped within its limit + 1 s): they run last and one file at a time, so that no other test's build
 * or server competes for the machine's two cores while they measure.
 */
const TIMED = [
  'test/e2e/code-mode/code-sandbox.test.ts',
  'test/runtime/code-mode/sandbox-thread.test.ts',
  'test/e2e/deploy/targets.test.ts',
  'test/e2e/deploy/lambda.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 300_000,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'suite', include: ['test/**/*.test.ts'], exclude: TIMED } },
      {
        extends: true,
        test: { name: 'timed', include: TIMED, fileParallelism: false, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
