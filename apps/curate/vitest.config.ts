import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The screens' tests read a catalog made once by the whole flow on the demo (see demo-fixture.ts).
    globalSetup: ['./src/testing/demo-fixture-setup.ts'],
    // Each test file gets a state folder of its own (private-state-setup.ts), so two can run at once:
    // vitest's default on two cores is one, and these files spend much of their time waiting on pytest.
    setupFiles: ['./src/testing/private-state-setup.ts'],
    maxWorkers: 2,
    // A screen's test types dozens of keys, 100 ms apart (ink-test-support.ts): vitest's 5 s default is
    // too short for them on a busy machine.
    testTimeout: 30_000,
    // Ink prints only its last frame when it believes it runs in CI (is-in-ci reads CI at import);
    // the screens' tests read every frame, and CI runs with CI=true.
    env: { CI: '0' },
  },
});
