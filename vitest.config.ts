import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// One Vitest run for the contract and the server. The contract package is read from its source, so tests never
// depend on a stale build.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@pecan\/contract$/, replacement: fileURLToPath(new URL('./contract/src/index.ts', import.meta.url)) },
      {
        find: /^@pecan\/contract\/(.+)$/,
        replacement: `${fileURLToPath(new URL('./contract/src/', import.meta.url))}$1.ts`,
      },
    ],
  },
  test: {
    include: [
      'contract/src/**/*.test.ts',
      'server/src/**/*.test.ts',
      'web/src/**/*.test.{ts,tsx}',
      'bench/**/*.test.ts',
    ],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
