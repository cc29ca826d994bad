import { writeFileSync } from 'node:fs';
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

async function run(argv: readonly string[]): Promise<{ code: number; stderr: string }> {
  const io = bufferIO();
  const code = await main(argv, io);
  return { code, stderr: io.stderr() };
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
