import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Vitest's default on two cores is one file at a time; each file here has its own state folder and
    // spends much of its time waiting on pytest.
    maxWorkers: 2,
  },
});
