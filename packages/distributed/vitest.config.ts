import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The Redis tests share one server (CI's, or a private one per file) and run the demo's real tests.
    fileParallelism: false,
  },
});
