import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const PACKAGE_VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/**
 * `repocod-kit <version>` alone: for files that must come out byte-identical from any commit of the
 * same release (the committed rebuild records), where a commit hash would change with every commit.
 */
export function toolPackageVersion(): string {
  return `repocod-kit ${PACKAGE_VERSION}`;
}

/**
 * What made a dataset, for its provenance: `repocod-kit <version>`, and when the tool runs from a git
 * checkout its commit (with `+modified` when the tree has uncommitted changes), since the version
 * number alone does not tell two builds of the same release apart.
 */
export function toolVersion(projectRoot: string): string {
  const git = (args: string[]): string | null => {
    try {
      return execFileSync('git', args, {
        cwd: projectRoot,
        encoding: 'utf8',
        timeout: 10_000,
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim();
    } catch {
      return null;
    }
  };
  const commit = git(['rev-parse', '--short=12', 'HEAD']);
  if (commit === null) return `repocod-kit ${PACKAGE_VERSION}`;
  const modified = (git(['status', '--porcelain', '--untracked-files=no']) ?? '') !== '';
  return `repocod-kit ${PACKAGE_VERSION} (git ${commit}${modified ? '+modified' : ''})`;
}
