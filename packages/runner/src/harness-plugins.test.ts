import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const PROJECT_ROOT = resolve(new URL('../../..', import.meta.url).pathname);
const TOOLS_PYTHON = resolve(PROJECT_ROOT, '.repocod/tools/py/bin/python');
const HARNESS_TESTS = resolve(PROJECT_ROOT, 'packages/runner/harness-tests');

/**
 * The harness plugins' own tests (packages/runner/harness-tests, pytest with pytester): each plugin,
 * run by a real pytest on a small project, reads and writes what this side of the protocol expects.
 */
describe("the harness plugins' pytest tests", () => {
  it('pass', { timeout: 180_000 }, () => {
    const run = spawnSync(TOOLS_PYTHON, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', HARNESS_TESTS], {
      cwd: HARNESS_TESTS,
      encoding: 'utf8',
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
    });
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    // Exit 0 means tests ran (none collected is exit 5); none may be skipped for want of a tool.
    expect(run.stdout).not.toMatch(/skipped/);
  });
});
