import { execFile } from 'node:child_process';
import { contentHash } from '@repocod/core';

// importlib.metadata rather than `pip freeze`: the same answer in every venv whichever installer
// filled it, and no editable-install lines carrying the checkout's absolute path (which would make
// the hash differ between two machines with the very same packages).
const LIST_PACKAGES = [
  'import importlib.metadata as m, re',
  "names = {(re.sub(r'[-_.]+', '-', d.metadata['Name']).lower(), d.version) for d in m.distributions() if " +
    "d.metadata['Name']}",
  "print('\\n'.join(sorted(n + '==' + v for n, v in names)))",
].join('\n');

/** `name==version` of every distribution installed in the venv of `python`, names normalized (PEP 503), sorted. */
export function listInstalledPackages(python: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  return new Promise((resolve, reject) => {
    execFile(
      python,
      ['-c', LIST_PACKAGES],
      { env, timeout: 60_000, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error !== null) {
          reject(
            new Error(`listing the installed packages failed: ${stderr.trim() || error.message}`, { cause: error }),
          );
          return;
        }
        resolve(stdout.split('\n').filter((line) => line !== ''));
      },
    );
  });
}

/** sha256 of the sorted package list, one per line: equal environments, equal hashes, for provenance. */
export function packagesHash(packages: readonly string[]): string {
  return contentHash(`${[...packages].sort().join('\n')}\n`);
}
