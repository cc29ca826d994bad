import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, loadManifest } from '@repocod/runner';
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

const COMMITTER = {
  GIT_AUTHOR_NAME: 'a',
  GIT_AUTHOR_EMAIL: 'a@localhost',
  GIT_COMMITTER_NAME: 'a',
  GIT_COMMITTER_EMAIL: 'a@localhost',
};

/** The demo as a clone of someone's repository: its files in one commit, an origin on GitHub if given. */
async function demoClone(origin: string | null): Promise<string> {
  const repo = join(dir, 'shop');
  cpSync(join(PROJECT_ROOT, 'datasets/demo'), repo, { recursive: true, filter: (path) => !path.endsWith('.yaml') });
  await git(repo, ['init', '--quiet', '--initial-branch=main']);
  await git(repo, ['add', '--all']);
  await git(repo, ['commit', '--quiet', '--no-gpg-sign', '-m', 'one'], COMMITTER);
  if (origin !== null) await git(repo, ['remote', 'add', 'origin', origin]);
  return repo;
}

describe('repocod manifest add', () => {
  const previousState = process.env.REPOCOD_STATE;
  afterEach(() => {
    if (previousState === undefined) delete process.env.REPOCOD_STATE;
    else process.env.REPOCOD_STATE = previousState;
  });

  it('writes a whole entry read from the clone, then builds it and collects the suite once', {
    timeout: 300_000,
  }, async () => {
    process.env.REPOCOD_STATE = join(dir, 'state');
    const repo = await demoClone('git@github.com:acme/shop.git');
    const file = join(dir, 'mine.yaml');
    const added = await run(['manifest', 'add', 'shop', '--source', repo, '--manifest', file]);
    expect(added.code, added.stderr).toBe(0);
    const [entry] = loadManifest(file).repositories;
    const head = (await git(repo, ['rev-parse', 'HEAD'])).trim();
    expect(entry).toMatchObject({
      name: 'shop',
      source: repo,
      repo: 'acme/shop',
      baseCommit: head,
      install: [{ pip: ['--editable', '.[test]'] }],
      testRoots: ['tests'],
    });
    expect(readFileSync(file, 'utf8')).toContain("repo from the clone's origin git@github.com:acme/shop.git");
    expect(added.stdout).toContain('#   test_roots: testpaths of pyproject.toml');
    // The check: the demo's 316 tests, as its whole-suite runs find them, and no module left out.
    expect(added.stdout).toMatch(/shop: environment \S+ \(\d+ packages\)\n {2}316 tests collected under tests/);
    expect(added.stdout).toContain('  every module collected');

    const again = await run(['manifest', 'add', 'shop', '--source', repo, '--manifest', file]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`${file} already has an entry named "shop"`);
  });

  it('says which modules did not collect, by reason', { timeout: 300_000 }, async () => {
    process.env.REPOCOD_STATE = join(dir, 'state');
    const repo = await demoClone('https://github.com/acme/shop.git');
    writeFileSync(join(repo, 'tests/test_broken.py'), 'import inventory.no_such_module\n');
    await git(repo, ['add', '--all']);
    await git(repo, ['commit', '--quiet', '--no-gpg-sign', '-m', 'two'], COMMITTER);
    const added = await run(['manifest', 'add', 'shop', '--source', repo, '--manifest', join(dir, 'mine.yaml')]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('  1 module(s) did not collect:');
    expect(added.stdout).toContain(
      "    ModuleNotFoundError: No module named 'inventory.no_such_module': tests/test_broken.py",
    );
  });

  it('says why pytest did not start, where it collected nothing (an option no installed plugin adds)', {
    timeout: 300_000,
  }, async () => {
    process.env.REPOCOD_STATE = join(dir, 'state');
    const repo = await demoClone('https://github.com/acme/shop.git');
    writeFileSync(join(repo, 'pytest.ini'), '[pytest]\ntestpaths = tests\naddopts = --no-such-option-repocod\n');
    await git(repo, ['add', '--all']);
    await git(repo, ['commit', '--quiet', '--no-gpg-sign', '-m', 'two'], COMMITTER);
    const file = join(dir, 'start.yaml');
    const added = await run(['manifest', 'add', 'shop', '--source', repo, '--manifest', file]);
    expect(added.code).toBe(1);
    // Before, this said "0 tests collected under tests … every module collected" and printed pytest's output.
    expect(added.stdout).not.toContain('every module collected');
    const reason = /pytest did not start the suite under tests: .*pytest: error: unrecognized arguments: (.*)\n/;
    expect(reason.exec(added.stdout)?.[1]).toMatch(/^--no-such-option-repocod \(inifile: \S+pytest\.ini\)$/);
    expect(added.stdout).toContain(`The entry is in ${file}: add what pytest needs to its install`);
  });

  it('asks for --owner where the clone has no origin, and takes it', async () => {
    const repo = await demoClone(null);
    const file = join(dir, 'mine.yaml');
    const refused = await run(['manifest', 'add', 'shop', '--source', repo, '--manifest', file, '--no-check']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('has no origin remote to read its owner/name from');
    expect(refused.stderr).toContain('give --owner OWNER (or OWNER/NAME)');
    expect(existsSync(file)).toBe(false);
    const owned = await run([
      'manifest',
      'add',
      'shop',
      '--source',
      repo,
      '--manifest',
      file,
      '--owner',
      'acme',
      '--no-check',
    ]);
    expect(owned.code, owned.stderr).toBe(0);
    expect(loadManifest(file).repositories[0]?.repo).toBe('acme/shop');
  });

  it('refuses what it cannot write, and leaves a manifest it cannot append to as it was', async () => {
    const repo = await demoClone('https://github.com/acme/shop.git');
    const noFile = await run(['manifest', 'add', 'shop', '--source', repo]);
    expect(noFile.stderr).toContain('repocod manifest add shop needs --manifest FILE');
    const both = await run([
      'manifest',
      'add',
      'shop',
      '--source',
      repo,
      '--url',
      'https://x/y.git',
      '--manifest',
      'm',
    ]);
    expect(both.stderr).toContain('takes one of --source PATH and --url URL');
    // The list is not the file's last key: an append would land under `levels:`.
    const file = join(dir, 'other.yaml');
    const text =
      `repositories:\n  - name: up\n    source: ${repo}\n    python: "3.11"\n    install: []\n` +
      '    test_roots: [tests]\nlevels: repocod-v1\n';
    writeFileSync(file, text);
    const stuck = await run(['manifest', 'add', 'shop', '--source', repo, '--manifest', file, '--no-check']);
    expect(stuck.code).toBe(1);
    expect(stuck.stderr).toContain('the new entry does not read back');
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('derive proposes a whole entry for a name no manifest has', async () => {
    const repo = await demoClone('https://github.com/acme/shop.git');
    const derived = await run(['manifest', 'derive', 'shop', '--source', `shop=${repo}`, '--at', 'shop=HEAD']);
    expect(derived.code, derived.stderr).toBe(0);
    expect(derived.stdout).toContain('  - name: shop\n');
    expect(derived.stdout).toContain('    repo: acme/shop\n');
    const unknown = await run(['manifest', 'derive', 'shop', '--at', 'shop=HEAD']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no manifest has "shop"; give its clone with --source shop=PATH');
  });
});
