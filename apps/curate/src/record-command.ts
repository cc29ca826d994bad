import { isAbsolute, join, relative, resolve } from 'node:path';
import { RepocodError } from '@repocod/core';
import type { Catalog, MadeWith, WrittenRecord } from '@repocod/pipeline';
import {
  checkpointDigest,
  DEFAULT_CATALOG_PATH,
  DEFAULT_RECORD_FOLDER,
  levelModeOf,
  listRepositories,
  openCatalog,
  relabelRecord,
  toolVersion,
  writeLiteRecord,
  writeRebuildRecords,
} from '@repocod/pipeline';
import type { CommandIO } from './io.js';
import { levelsOption } from './levels-option.js';
import type { ParsedArgs } from './parse-args.js';
import { changedSinceOption } from './changed-since-option.js';
import { checkpointFolder, DEFAULT_CHECKPOINT_FOLDER } from './checkpoint-command.js';
import { listOption, stringOption } from './parse-args.js';
import { PROJECT_ROOT, stateRoot } from './project-root.js';

export const RECORD_USAGE =
  `usage: repocod record [--repo NAME]... [--lite] [--out DIR] [--db FILE] [--selection ID] ` +
  `[--manifest FILE]
                      [--checkpoints DIR] [--changed-since DATE]
       repocod record --relabel --repo NAME... [--levels MODE] [--out DIR] [--db FILE]

Writes the record of each repository's rebuild, to be committed beside the manifest:
<repository>.jsonl, a line per task in instance id order (instance_id, repository, file, qualname,
level, prompt and solution lines and tokens, cc, fail_to_pass sorted, selected: whether the selection
(default: the latest) picked it, valid: true or false from the task's latest validation of its current
content in any selection, so a replaced pick keeps its verdict; null when it was never judged), and
<repository>.meta.json (base commit, environment and its packages, baseline and mining counts, tasks
per level, validation counts, stage times, tool version; stands_in_for names the manifest's commit
when the tasks were built on another tree, such as a release's sdist; made_with the tool's commit
and the digest of the repository's checkpoint in --checkpoints DIR, default
${DEFAULT_CHECKPOINT_FOLDER}). With --lite, also lite.json: the selection itself (its spec, and per
level the picks in rank order with their repository, score and verdict, the quota and the cut-off
score; the pool's tasks whose validation failed, with the check; made_with). The folder defaults to
${DEFAULT_RECORD_FOLDER} in the project. The same catalog, tool commit and checkpoints always give
the same bytes.

--relabel labels the tasks of the committed records (--out DIR) under every context-level mode from
the repository's checkout (it must be extracted in the catalog at the record's base commit), and sets
each line's level under --levels MODE (default: the manifest's levels): a record whose mining the
catalog no longer holds gets the modes without mining again. Every other field stays as it was.

--changed-since DATE writes a fresh version's record: the tasks were built with that cutoff (it is not
stored with them, so the record is told it and checks it: a task whose body did not change after it is
refused, naming the task). Each line ends with body_commit and body_changed_at (its body's newest code
line, as git blame dated it at the base commit), and the meta gains freshness: the cutoff, how the
bodies were dated, the candidates dated and those changed after the cutoff, the oldest and newest
task body; its stands_in_for is null (a fresh version is built at a commit of its own, --at).`;

export async function recordCommand(args: ParsedArgs, io: CommandIO): Promise<number> {
  const repositories = listOption(args, 'repo');
  if (args.flags.get('relabel') === true) return relabelCommand(args, io, repositories);
  const lite = args.flags.get('lite') === true;
  if (args.positionals.length > 0 || (repositories.length === 0 && !lite))
    throw new RepocodError('usage', RECORD_USAGE);
  const catalog = await openCatalog(stringOption(args, 'db') ?? DEFAULT_CATALOG_PATH);
  try {
    const folder = recordFolder(stringOption(args, 'out'));
    const selection = stringOption(args, 'selection');
    const manifest = stringOption(args, 'manifest');
    const changedSince = changedSinceOption(args);
    const madeWith = madeWithOf(checkpointFolder(stringOption(args, 'checkpoints')), [
      ...repositories,
      ...(await catalog.repositories()).map((known) => known.name),
    ]);
    const written =
      repositories.length === 0
        ? []
        : await writeRecords(catalog, repositories, folder, { selection, manifest, madeWith, changedSince });
    io.out(formatWrittenRecords(written));
    if (lite) {
      const { file, tasks } = await writeLiteRecord(catalog, folder, selection, madeWith);
      io.out(`selection: ${tasks} task(s) → ${shownPath(file)}\n`);
    }
    return 0;
  } finally {
    await catalog.close();
  }
}

async function relabelCommand(args: ParsedArgs, io: CommandIO, repositories: readonly string[]): Promise<number> {
  if (repositories.length === 0 || args.positionals.length > 0 || args.flags.has('lite') || args.flags.has('selection'))
    throw new RepocodError('usage', `--relabel takes --repo NAME... and no --lite or --selection\n\n${RECORD_USAGE}`);
  const manifestLevels = new Map(
    listRepositories({ projectRoot: PROJECT_ROOT, manifest: stringOption(args, 'manifest') }).map((entry) => [
      entry.name,
      entry.levels,
    ]),
  );
  const catalog = await openCatalog(stringOption(args, 'db') ?? DEFAULT_CATALOG_PATH);
  try {
    const folder = recordFolder(stringOption(args, 'out'));
    for (const repository of repositories) {
      const mode = levelModeOf({ levels: manifestLevels.get(repository) }, levelsOption(args));
      const { tasks, byLevel } = await relabelRecord(catalog, folder, repository, mode);
      const levels = Object.entries(byLevel)
        .map(([level, count]) => `${level} ${count}`)
        .join(', ');
      io.out(`${repository}: ${tasks} task(s) labelled under every mode; ${mode}: ${levels}\n`);
    }
    return 0;
  } finally {
    await catalog.close();
  }
}

/** The records folder: the default in the project, or DIR as given (relative to the working directory). */
export function recordFolder(out: string | undefined): string {
  if (out === undefined) return join(PROJECT_ROOT, DEFAULT_RECORD_FOLDER);
  return isAbsolute(out) ? out : resolve(out);
}

/** Shared with `repocod curate --record`. */
export function writeRecords(
  catalog: Catalog,
  repositories: readonly string[],
  folder: string,
  options: {
    readonly selection?: string;
    readonly manifest?: string;
    readonly madeWith?: MadeWith;
    readonly changedSince?: string;
  } = {},
): Promise<WrittenRecord[]> {
  return writeRebuildRecords(catalog, folder, {
    repositories,
    selectionId: options.selection,
    stateRoot: stateRoot(),
    manifestBaseCommits: manifestBaseCommits(options.manifest),
    madeWith: options.madeWith ?? madeWithOf(checkpointFolder(undefined), repositories),
    changedSince: options.changedSince,
  });
}

/** The tool with its commit, and each repository's checkpoint digest in `folder` (null where it has none). */
export function madeWithOf(folder: string, repositories: readonly string[]): MadeWith {
  return {
    tool: toolVersion(PROJECT_ROOT),
    checkpoints: new Map([...new Set(repositories)].map((name) => [name, checkpointDigest(join(folder, name))])),
  };
}

/** Each repository's base commit as its manifest writes it (the built-in manifests unless one is given). */
export function manifestBaseCommits(manifest: string | undefined): Map<string, string> {
  const commits = new Map<string, string>();
  for (const entry of listRepositories({ projectRoot: PROJECT_ROOT, manifest })) {
    if (entry.baseCommit !== null) commits.set(entry.name, entry.baseCommit);
  }
  return commits;
}

export function formatWrittenRecords(written: readonly WrittenRecord[]): string {
  return written
    .map((record) => `${record.repository}: ${record.tasks} task(s) → ${record.files.map(shownPath).join(', ')}\n`)
    .join('');
}

/** A path relative to the working directory when it is below it, else as given. */
function shownPath(file: string): string {
  const near = relative(process.cwd(), file);
  return near.startsWith('..') || isAbsolute(near) ? file : near;
}
