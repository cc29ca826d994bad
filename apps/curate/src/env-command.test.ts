import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git } from '@repocod/runner';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from './main.js';
import { PROJECT_ROOT } from './project-root.js';
import { bufferIO, makeTempDir } from './testing/test-support.js';

let dir: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = makeTempDir());
});
afterEach(() => cleanup());

async function run(argv: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = bufferIO();
  const code = await main(argv, io);
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}

// Every case fails while --at is resolved, before a checkout or an environment is made.
describe('repocod env --at', () => {
  it('reads --at NAME=REF beside --source and resolves it in that clone', async () => {
    await git(dir, ['init', '--quiet', '--initial-branch=main']);
    writeFileSync(join(dir, 'mod.py'), 'x = 1\n');
    await git(dir, ['add', '--all']);
    await git(dir, ['commit', '--quiet', '--no-gpg-sign', '-m', 'one', '--author', 'a <a@localhost>'], {
      GIT_COMMITTER_NAME: 'a',
      GIT_COMMITTER_EMAIL: 'a@localhost',
    });
    await git(dir, ['tag', 'v1.0']);
    const unknown = await run(['env', 'demo', '--source', `demo=${dir}`, '--at', 'demo=v1.1']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`--at demo=v1.1: no commit, tag or branch "v1.1" in ${dir} (near: v1.0)`);
    const future = await run(['env', 'demo', '--source', `demo=${dir}`, '--at=demo=2999-01-01']);
    expect(future.stderr).toContain('--at demo=2999-01-01: 2999-01-01 has not begun yet (UTC)');
  });

  it('refuses a folder without history, a repository not in the manifest, --at where nothing checks out', async () => {
    const demo = await run(['env', 'demo', '--at', 'demo=HEAD']);
    expect(demo.code).toBe(2);
    expect(demo.stderr).toContain(
      `--at demo=HEAD: demo is taken from ${join(PROJECT_ROOT, 'datasets/demo')}, which is not a git repository`,
    );
    const typo = await run(['env', 'demo', '--at', 'dmeo=HEAD']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('--at dmeo=HEAD: no repository named "dmeo"');
    const select = await run(['select', '--at', 'demo=HEAD']);
    expect(select.code).toBe(2);
    expect(select.stderr).toContain('unknown option --at for "select"');
  });
});

describe('repocod env with recipe variants', () => {
  const previousState = process.env.REPOCOD_STATE;
  afterEach(() => {
    if (previousState === undefined) delete process.env.REPOCOD_STATE;
    else process.env.REPOCOD_STATE = previousState;
  });

  /** The demo's files committed at `committedAt` (a file `era.txt` telling the commits apart); the sha. */
  async function commitDemo(repo: string, era: string, committedAt: string): Promise<string> {
    writeFileSync(join(repo, 'era.txt'), `${era}\n`);
    await git(repo, ['add', '--all']);
    await git(repo, ['commit', '--quiet', '--no-gpg-sign', '-m', era], {
      GIT_AUTHOR_NAME: 'a',
      GIT_AUTHOR_EMAIL: 'a@localhost',
      GIT_AUTHOR_DATE: committedAt,
      GIT_COMMITTER_NAME: 'a',
      GIT_COMMITTER_EMAIL: 'a@localhost',
      GIT_COMMITTER_DATE: committedAt,
    });
    return git(repo, ['rev-parse', 'HEAD']);
  }

  it('builds the demo at two commits of two eras with two recipes, says which, and reuses each', async () => {
    process.env.REPOCOD_STATE = join(dir, 'state');
    const repo = join(dir, 'demo');
    cpSync(join(PROJECT_ROOT, 'datasets/demo'), repo, { recursive: true });
    await git(repo, ['init', '--quiet', '--initial-branch=main']);
    const old = await commitDemo(repo, '2024', '2024-06-01T00:00:00Z');
    const recent = await commitDemo(repo, '2025', '2025-06-01T00:00:00Z');
    const manifest = join(dir, 'manifest.yaml');
    writeFileSync(
      manifest,
      [
        'repositories:',
        '  - name: demo',
        `    source: ${repo}`,
        `    base_commit: ${old}`,
        '    python: "3.11"',
        // Released before the older commit's day: uv resolves as of each commit's date (pip would not).
        '    install: [{pip: ["pytest==8.2.1"]}]',
        '    test_roots: [tests]',
        '    timeout: 120',
        '    variants:',
        '      - from: 2025-01-01',
        '        why: the demo of 2025 wants its era in the environment',
        '        env: {DEMO_ERA: "2025"}',
        '',
      ].join('\n'),
    );
    const env = (commit: string) => run(['env', 'demo', '--manifest', manifest, '--at', `demo=${commit}`]);
    const folder = (stdout: string): string => /environment {2}\S+\/(demo-[0-9a-f]{16})\n/.exec(stdout)?.[1] ?? '';

    const before = await env(old);
    expect(before.code, before.stderr).toBe(0);
    expect(before.stdout).toContain(
      "recipe       the entry's own (the commit, of 2024-06-01T00:00:00+00:00, is before variants[0] from 2025-01-01)",
    );
    const after = await env(recent);
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toContain(
      `recipe       variants[0] from 2025-01-01 (${manifest}:10): the demo of 2025 wants its era in the environment`,
    );
    expect(folder(before.stdout)).toMatch(/^demo-/);
    expect(folder(after.stdout)).toMatch(/^demo-/);
    expect(folder(after.stdout)).not.toBe(folder(before.stdout));
    const again = await env(recent);
    expect(folder(again.stdout)).toBe(folder(after.stdout));
    expect(again.stdout).toMatch(/, reused in /);
  }, 600_000);
});
