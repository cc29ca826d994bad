import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The stages' tests after mining start from the demo mined once (see src/testing/mined-demo-setup.ts).
    globalSetup: ['./src/testing/mined-demo-setup.ts'],
    // Vitest's default on two cores is one file at a time; these files spend much of their time waiting on
    // pytest and git, and each has its own catalog and state folder (nothing shared but read-only sources).
    maxWorkers: 2,
  },
});
