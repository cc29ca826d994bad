import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { RepocodError } from '@repocod/core';
import { git } from './git.js';
import { findPythonInterpreter } from './python-interpreter.js';
import { stderrTail } from './stderr-tail.js';

const execFileAsync = promisify(execFile);

/**
 * A clone can lack some of its base commit's files: a mirror made under a size limit keeps the
 * commits and trees but not the largest blobs (plotly.py's here lacks `plotly.min.js` and plotly-geo's
 * shape files), and `git checkout` then dies with "unable to read sha1 file". Released distributions
 * often ship the very same bytes. The rules:
 *
 * - A missing file is a blob of the base commit's tree that the object store cannot read.
 * - The manifest's `blobs_from` names distributions (`plotly==5.24.1`); each is downloaded from the
 *   package index (pip download, no dependencies) and every member of its archive (wheel or sdist)
 *   is hashed as git hashes a blob. A member whose blob id is a missing one is written into the
 *   clone's object store; the id proves the bytes are the commit's own, whatever the member's path.
 * - A file still missing that the entry's `absent_files` names is left out of the working copies (a sparse
 *   checkout, checkout.ts): the entry says why no test needs it.
 * - Anything else still missing stops the checkout with the paths and what to do.
 */

export interface MissingBlob {
  readonly path: string;
  readonly blob: string;
}

/** The files of `commit`'s tree whose blobs the repository at `repoPath` cannot read. */
export async function missingBlobs(repoPath: string, commit: string): Promise<MissingBlob[]> {
  const tree = await git(repoPath, ['ls-tree', '-r', '-z', commit]);
  const blobs = new Map<string, string[]>();
  for (const line of tree.split('\0')) {
    const match = /^\d+ blob ([0-9a-f]{40})\t(.+)$/.exec(line);
    if (match === null) continue;
    const [, blob, path] = match as unknown as [string, string, string];
    blobs.set(blob, [...(blobs.get(blob) ?? []), path]);
  }
  if (blobs.size === 0) return [];
  const checked = await new Promise<string>((resolve, reject) => {
    const args = ['cat-file', '--batch-check=%(objectname) %(objecttype)'];
    const child = execFile('git', args, { cwd: repoPath, maxBuffer: 1 << 28 }, (error, stdout) => {
      if (error === null) resolve(stdout);
      else reject(new RepocodError('git-failed', `git cat-file --batch-check (in ${repoPath}): ${error.message}`));
    });
    child.stdin?.end(`${[...blobs.keys()].join('\n')}\n`);
  });
  const missing: MissingBlob[] = [];
  for (const line of checked.split('\n')) {
    const match = /^([0-9a-f]{40}) missing$/.exec(line.trim());
    if (match === null) continue;
    for (const path of blobs.get(match[1] ?? '') ?? []) missing.push({ path, blob: match[1] ?? '' });
  }
  return missing.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Hashes every member of the archives in argv[3:] as git hashes a blob; the members whose ids are in
 * argv[1] (comma-separated) are written into the folder argv[2], each named by its id.
 */
const SCAN_ARCHIVES = `
import hashlib, os, sys, tarfile, zipfile
wanted = set(sys.argv[1].split(","))
out = sys.argv[2]
def members(path):
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as archive:
            for info in archive.infolist():
                if not info.is_dir():
                    yield info.filename, archive.read(info)
    elif tarfile.is_tarfile(path):
        with tarfile.open(path) as archive:
            for info in archive:
                if info.isfile():
                    yield info.name, archive.extractfile(info).read()
for path in sys.argv[3:]:
    for name, data in members(path):
        blob = hashlib.sha1(b"blob %d\\0" % len(data) + data).hexdigest()
        if blob in wanted:
            with open(os.path.join(out, blob), "wb") as handle:
                handle.write(data)
            print(blob, os.path.basename(path) + ":" + name)
`;

export interface FilledBlob extends MissingBlob {
  /** `plotly-5.24.1-py3-none-any.whl:plotly/package_data/plotly.min.js` */
  readonly from: string;
}

/**
 * Writes the missing blobs found in the `distributions` into the repository's object store (see the
 * rules above); returns what it filled. `downloads` keeps the archives for the next checkout.
 */
export async function fillBlobsFromDistributions(
  repoPath: string,
  missing: readonly MissingBlob[],
  distributions: readonly string[],
  downloads: string,
): Promise<FilledBlob[]> {
  if (missing.length === 0 || distributions.length === 0) return [];
  const python = await findPythonInterpreter('3');
  mkdirSync(downloads, { recursive: true });
  for (const requirement of distributions) {
    try {
      const args = ['-m', 'pip', 'download', '--no-deps', '--quiet', '--dest', downloads, requirement];
      await execFileAsync(python.path, args, { maxBuffer: 1 << 24 });
    } catch (error) {
      const stderr = stderrTail(error);
      throw new RepocodError('environment-failed', `blobs_from: pip download ${requirement} failed:\n${stderr}`);
    }
  }
  const scratch = mkdtempSync(join(downloads, 'blobs-'));
  try {
    const archiveNames = readdirSync(downloads).filter((name) => /\.(whl|zip|tar\.gz|tgz)$/.test(name));
    const archives = archiveNames.map((name) => join(downloads, name));
    const wanted = [...new Set(missing.map((file) => file.blob))];
    const args = ['-c', SCAN_ARCHIVES, wanted.join(','), scratch, ...archives];
    const { stdout } = await execFileAsync(python.path, args, { maxBuffer: 1 << 24 });
    const lines = stdout
      .trim()
      .split('\n')
      .filter((line) => line !== '');
    const sources = new Map(lines.map((line) => line.split(' ') as [string, string]));
    const filled: FilledBlob[] = [];
    for (const blob of wanted) {
      const from = sources.get(blob);
      if (from === undefined) continue;
      const written = await git(repoPath, ['hash-object', '-w', '--no-filters', join(scratch, blob)]);
      if (written !== blob) {
        throw new RepocodError('git-failed', `${from} hashed to ${written} in ${repoPath}, not ${blob}`);
      }
      for (const file of missing.filter((entry) => entry.blob === blob)) filled.push({ ...file, from });
    }
    return filled;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The error for files still missing: which, and the two ways out. */
export function missingBlobsError(
  name: string,
  repoPath: string,
  missing: readonly MissingBlob[],
  distributions: readonly string[],
): RepocodError {
  const listed = missing.slice(0, 10).map((file) => `${file.path} (blob ${file.blob.slice(0, 12)})`);
  const more = missing.length > 10 ? `, and ${missing.length - 10} more` : '';
  const tried = distributions.length === 0 ? '' : ` None of them is in ${distributions.join(', ')} (blobs_from).`;
  return new RepocodError(
    'commit-missing',
    `${name}: the clone at ${repoPath} lacks ${missing.length} file(s) of the base commit (git cannot read ` +
      `their blobs): ${listed.join(', ')}${more}.${tried} A clone made under a size limit keeps the commit but ` +
      'not its largest files. ' +
      'Give a complete clone with --source NAME=PATH, or name in the manifest entry the package-index distributions ' +
      'that ship these files byte for byte (blobs_from: ["plotly==5.24.1"]): each file is taken from them ' +
      'when its git blob id matches. A file no test needs (a build artefact of another language) can be left out ' +
      'of the working copies instead: absent_files: [{path: ..., why: ...}].',
  );
}
