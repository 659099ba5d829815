import { defineConfig } from 'vitest/config';

// expect.poll gives up after 1 s by default: a page's fetch or a server's log line can take longer on a
// busy machine (npm test runs the three projects at once, beside anvils, PostgreSQL and Chromium).
// A poll that must wait longer, or less, says so itself. (vi.waitFor has no such setting: each call
// passes its timeout.)
const expect = { poll: { timeout: 30_000 } };

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          expect,
          // npm test runs the three projects at once, beside anvils, PostgreSQL and Chromium: a unit test
          // doing real work (scrypt at N=2^17, parsing every page, starting a worker thread) takes seconds
          // there, past vitest's default of 5 s.
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          expect,
          testTimeout: 120_000,
          hookTimeout: 600_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          expect,
          globalSetup: ['test/support/e2e-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 600_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
