import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_ROOT, toolsPython } from './project-paths.js';

/**
 * The demo project is the fixture of every later stage (mining runs its suite hundreds of times),
 * so its own suite must be real, large enough and green on the machine's Python.
 */
describe('the demo project test suite', () => {
  it('passes under real pytest with at least 150 tests', { timeout: 120_000 }, () => {
    const report = join(mkdtempSync(join(tmpdir(), 'repocod-demo-')), 'junit.xml');
    const run = spawnSync(toolsPython(), ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', `--junitxml=${report}`], {
      cwd: DEMO_ROOT,
      encoding: 'utf8',
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
    });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    const suite = /<testsuite [^>]*>/.exec(readFileSync(report, 'utf8'))?.[0] ?? '';
    const count = (name: string): number => Number(new RegExp(`${name}="(\\d+)"`).exec(suite)?.[1] ?? Number.NaN);
    expect(count('tests')).toBeGreaterThanOrEqual(150);
    expect(count('failures')).toBe(0);
    expect(count('errors')).toBe(0);
  });
});
