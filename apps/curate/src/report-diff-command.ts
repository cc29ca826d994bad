import { join, resolve } from 'node:path';
import { RepocodError } from '@repocod/core';
import {
  DEFAULT_CATALOG_PATH,
  DEFAULT_RELEASE_FOLDER,
  openCatalog,
  parseChangedSince,
  releaseFolderVersions,
  releaseVersionDiff,
  versionDiffText,
} from '@repocod/pipeline';
import type { CommandIO } from './io.js';
import type { ParsedArgs } from './parse-args.js';
import { stringOption } from './parse-args.js';
import { PROJECT_ROOT } from './project-root.js';

/** The usage lines of `report --diff` (part of REPORT_USAGE) and its help paragraph. */
export const REPORT_DIFF_SYNOPSIS =
  'repocod report --diff VERSION_A VERSION_B [--release DIR] [--cutoff DATE] [--json] [--db FILE]';

export const REPORT_DIFF_HELP = `--diff VERSION_A VERSION_B compares two versions of a release folder (--release
DIR, default out/release): the tasks kept (the same instance id, or the same file and qualified name, in both),
split into a same and a changed body (the lines the gold patch restores), the tasks added and removed, each with the
first reason that explains it, read from the catalog that built VERSION_B (--db; a catalog that does not hold
VERSION_B's tasks at its base commits is refused). A task of A missing from B: its repository not built, its
function deleted or renamed, no longer a candidate, its body unchanged since the cutoff, not mined, no relevant
tests, no task (or its patch checks fail), failed validation, not selected. A task of B missing from A: a new
repository, its body changed after A's base commit, or already there and left out of A. Then the tasks per
repository and each version's base commits and cutoffs. A version's cutoff is the one its freshness.json records
(publish --changed-since); --cutoff DATE gives VERSION_B's instead (without either, the cutoff rule is skipped).
--json prints the report as JSON.`;

/** `repocod report --diff A B`: parsed as `--diff A` and the positional B. */
export async function reportDiffCommand(args: ParsedArgs, io: CommandIO): Promise<number> {
  const a = stringOption(args, 'diff') as string;
  const [b, ...extra] = args.positionals;
  if (b === undefined || extra.length > 0)
    throw new RepocodError('usage', `--diff takes two versions: VERSION_A VERSION_B\n\nusage: ${REPORT_DIFF_SYNOPSIS}`);
  for (const option of ['selection', 'version', 'against', 'markdown', 'html', 'json-file', 'repo', 'records']) {
    if (args.flags.has(option))
      throw new RepocodError('usage', `--${option} does not go with --diff\n\nusage: ${REPORT_DIFF_SYNOPSIS}`);
  }
  const folder = resolve(stringOption(args, 'release') ?? join(PROJECT_ROOT, DEFAULT_RELEASE_FOLDER));
  const cutoff = cutoffOption(stringOption(args, 'cutoff'));
  // Both versions checked before the catalog is opened: a typo costs nothing.
  const versions = releaseFolderVersions(folder);
  for (const version of [a, b]) {
    if (!versions.includes(version))
      throw new RepocodError('usage', `version ${version} is not in ${folder}; its versions: ${versions.join(', ')}`);
  }
  const db = stringOption(args, 'db') ?? DEFAULT_CATALOG_PATH;
  const catalog = await openCatalog(db);
  try {
    const report = await releaseVersionDiff(catalog, folder, { a, b }, { cutoff, catalogName: db });
    io.out(args.flags.get('json') === true ? `${JSON.stringify(report, null, 2)}\n` : versionDiffText(report));
    return 0;
  } finally {
    await catalog.close();
  }
}

/** `--cutoff DATE` read as `--changed-since` is (a day or a timestamp, UTC, not in the future). */
export function cutoffOption(value: string | undefined): string | undefined {
  return value === undefined ? undefined : parseChangedSince(value, new Date(), '--cutoff');
}
