import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { makeTempDir } from '../testing/test-support.js';
import { toolPackageVersion, toolVersion } from './tool-version.js';

describe('toolVersion', () => {
  it('names the package version, and the commit of a git checkout with its uncommitted changes', () => {
    const { dir, cleanup } = makeTempDir();
    try {
      expect(toolVersion(dir)).toMatch(/^repocod-kit \d+\.\d+\.\d+$/);
      expect(toolVersion(dir)).toBe(toolPackageVersion());
      const git = (...args: string[]): string => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
      git('init', '-q');
      writeFileSync(`${dir}/file.txt`, 'one\n');
      git('add', 'file.txt');
      git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'one');
      const commit = git('rev-parse', '--short=12', 'HEAD');
      expect(toolVersion(dir)).toMatch(new RegExp(`^repocod-kit \\d+\\.\\d+\\.\\d+ \\(git ${commit}\\)$`));
      writeFileSync(`${dir}/file.txt`, 'two\n');
      expect(toolVersion(dir)).toContain(`(git ${commit}+modified)`);
    } finally {
      cleanup();
    }
  });
});
