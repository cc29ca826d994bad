import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLI_PATH, DEMO_ROOT, makeTempDir } from './testing/test-support.js';

let dir: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = makeTempDir());
});
afterEach(() => cleanup());

/** The built binary in its own process: exit codes and streams as a shell sees them. */
function cli(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI_PATH, ...args], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('the repocod binary', () => {
  it('extracts the demo: exit 0 and the summary on stdout', () => {
    expect(existsSync(CLI_PATH)).toBe(true);
    const db = join(dir, 'catalog.duckdb');
    const { status, stdout, stderr } = cli(['extract', DEMO_ROOT, '--db', db]);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(stdout).toBe(
      [
        `extracted demo (${DEMO_ROOT}) into ${db}`,
        '  files       19 (19 parsed, 0 unchanged, 0 removed)',
        '  functions   278 (52 candidates)',
        '  complexity  mean 2.55, max 13',
        '  problems    none',
        '',
      ].join('\n'),
    );
    expect(existsSync(db)).toBe(true);
  });

  it('exits 1 on a wrong path, naming it on stderr, and leaves no catalog in the working directory', () => {
    const { status, stdout, stderr } = cli(['extract', 'no/such/repo']);
    expect(status).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe('error: no/such/repo: no such file or directory; give the path of a repository checkout\n');
    expect(existsSync(join(dir, '.repocod'))).toBe(false);
  });
});
