import { isAbsolute, join, relative, resolve } from 'node:path';
import { RepocodError } from '@repocod/core';
import type { CheckpointTableCount } from '@repocod/pipeline';
import { DEFAULT_CATALOG_PATH, openCatalog } from '@repocod/pipeline';
import type { CommandIO } from './io.js';
import type { ParsedArgs } from './parse-args.js';
import { stringOption } from './parse-args.js';
import { PROJECT_ROOT } from './project-root.js';

export const DEFAULT_CHECKPOINT_FOLDER = 'datasets/repocod/checkpoints';

export const CHECKPOINT_USAGE = `usage: repocod checkpoint save <repository>... [--dir DIR] [--db FILE]
       repocod checkpoint restore <repository>... [--dir DIR] [--db FILE]

A rebuild's costly state, kept where a commit keeps it, so that it survives the machine it ran on:
save writes each repository's runs and test results (mining's baseline shards, the tasks stage's
collect runs, validation's runs), mining's baseline, coverage map and relevant tests, its
validations, stage times and job costs as Parquet files and checkpoint.json into DIR/<repository> (default
${DEFAULT_CHECKPOINT_FOLDER} in the project); restore adds to the catalog the rows it lacks. Then
mine, tasks and validate resume where the saved run stopped, and repocod cost counts the jobs run
before the save with those run after the restore. Files and functions (extract remakes
them), tasks (the tasks stage remakes them from mining's results) and selections are not kept.
While another process holds the catalog, save from a copy of it (the .duckdb and .wal files).`;

export async function checkpointCommand(args: ParsedArgs, io: CommandIO): Promise<number> {
  const [action, ...repositories] = args.positionals;
  if ((action !== 'save' && action !== 'restore') || repositories.length === 0) {
    throw new RepocodError('usage', CHECKPOINT_USAGE);
  }
  const folder = checkpointFolder(stringOption(args, 'dir'));
  const catalog = await openCatalog(stringOption(args, 'db') ?? DEFAULT_CATALOG_PATH);
  try {
    for (const repository of repositories) {
      const repositoryFolder = join(folder, repository);
      const counts =
        action === 'save'
          ? await catalog.saveCheckpoint(repository, repositoryFolder)
          : await catalog.restoreCheckpoint(repository, repositoryFolder);
      io.out(`${formatCheckpoint(action, repository, shownPath(repositoryFolder), counts)}\n`);
    }
    return 0;
  } finally {
    await catalog.close();
  }
}

export function checkpointFolder(dir: string | undefined): string {
  if (dir === undefined) return join(PROJECT_ROOT, DEFAULT_CHECKPOINT_FOLDER);
  return isAbsolute(dir) ? dir : resolve(dir);
}

/** `sympy → datasets/…/sympy: runs 61, test_results 13386, …` (restore: `added of read`). */
export function formatCheckpoint(
  action: 'save' | 'restore',
  repository: string,
  folder: string,
  counts: readonly CheckpointTableCount[],
): string {
  const cells = counts.map(({ table, rows, added }) =>
    action === 'save' ? `${table} ${rows}` : `${table} ${added ?? 0} of ${rows}`,
  );
  const arrow = action === 'save' ? `${repository} → ${folder}` : `${folder} → ${repository}`;
  return `${arrow}: ${cells.join(', ')}${action === 'restore' ? ' row(s) added' : ' row(s)'}`;
}

function shownPath(path: string): string {
  const fromProject = relative(PROJECT_ROOT, path);
  return fromProject.startsWith('..') ? path : fromProject;
}
