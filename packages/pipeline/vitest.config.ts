import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The stages' tests after mining start from the demo mined once (see src/mined-demo-setup.ts).
    globalSetup: ['./src/mined-demo-setup.ts'],
  },
});
