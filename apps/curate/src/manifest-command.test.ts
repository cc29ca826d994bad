import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git } from '@repocod/runner';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from './main.js';
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

describe('repocod manifest derive', () => {
  it("prints a variant read from the clone's project files at the commit --at names", async () => {
    const repo = join(dir, 'demo');
    mkdirSync(repo);
    await git(repo, ['init', '--quiet', '--initial-branch=main']);
    writeFileSync(
      join(repo, 'pyproject.toml'),
      '[project]\nname = "demo"\nrequires-python = ">=3.9"\n\n[dependency-groups]\ntests = ["pytest>=8"]\n',
    );
    await git(repo, ['add', '--all']);
    await git(repo, ['commit', '--quiet', '--no-gpg-sign', '-m', 'one'], {
      GIT_AUTHOR_NAME: 'a',
      GIT_AUTHOR_EMAIL: 'a@localhost',
      GIT_AUTHOR_DATE: '2026-02-01T00:00:00Z',
      GIT_COMMITTER_NAME: 'a',
      GIT_COMMITTER_EMAIL: 'a@localhost',
      GIT_COMMITTER_DATE: '2026-02-01T00:00:00Z',
    });
    const derived = await run(['manifest', 'derive', 'demo', '--source', `demo=${repo}`, '--at', 'demo=HEAD']);
    expect(derived.code, derived.stderr).toBe(0);
    expect(derived.stdout).toContain('uv resolves versions as of 2026-02-01T00:00:00Z');
    expect(derived.stdout).toContain('      - from: "2026-02-01T00:00:00+00:00"');
    expect(derived.stdout).toContain('        python: "3.11"');
    expect(derived.stdout).toContain('          - pip: ["pytest>=8", --editable, .]');
  });

  it('asks for the action and one --at of the repository', async () => {
    const missing = await run(['manifest', 'derive', 'demo']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('repocod manifest derive demo needs one --at demo=REF');
    const other = await run(['manifest', 'propose', 'demo']);
    expect(other.stderr).toContain('usage: repocod manifest derive <repository> --at NAME=REF');
  });
});
