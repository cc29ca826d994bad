import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * Vitest setup file, run in each test file's own process before the file: a state folder of the file's
 * own (a file may still set another). Two files run at once (vitest.config.ts), and two files resetting
 * the same worktrees of one state folder would see each other's patches.
 */
const state = mkdtempSync(join(tmpdir(), 'repocod-test-state-'));
process.env.REPOCOD_STATE = state;

// The folder can hold a virtual environment of thousands of files: on a busy machine removing it
// outlasts vitest's 10 s default for a hook (seen: mine-command.test.ts under a mining run).
afterAll(() => {
  rmSync(state, { recursive: true, force: true });
}, 120_000);
