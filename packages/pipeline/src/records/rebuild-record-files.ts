import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog } from '@repocod/catalog';
import { RepocodError } from '@repocod/core';
import { environmentDirectoryName, projectName, readEnvironmentMarker } from '@repocod/runner';
import type { MadeWith, RebuildRecord } from './rebuild-record.js';
import { buildRebuildRecord, formatRecordLines, formatRecordMeta, miningBehindTasks } from './rebuild-record.js';
import { buildLiteRecord, formatLiteRecord, LITE_RECORD_FILE } from '../lite/lite-record.js';
import { toolPackageVersion } from './tool-version.js';
import { storedBodyDates, storedDating } from '../candidates/body-dates.js';
import { checkOneEraPerRepository } from '../release/released-task.js';

/** Where `repocod record` writes unless told otherwise, relative to the project root. */
export const DEFAULT_RECORD_FOLDER = 'datasets/repocod/rebuilt';

export interface RebuildRecordOptions {
  /**
   * The catalog's repository names: manifest names, or an era's `NAME@COMMIT12` (catalog-name.ts), whose record is
   * written as NAME's.
   */
  readonly repositories: readonly string[];
  /** The selection whose validations give each task's `valid` (default: the latest). */
  readonly selectionId?: string;
  /** Where environments live (`<stateRoot>/envs`): their markers give the installer and the package list. */
  readonly stateRoot: string;
  /**
   * Each repository's base commit in its manifest, as written there (no --source applied): a record
   * whose tasks were built on another tree says which commit that tree stands in for.
   */
  readonly manifestBaseCommits?: ReadonlyMap<string, string>;
  /** The tool and checkpoints the records name (RecordMeta.made_with); omitted: null. */
  readonly madeWith?: MadeWith;
  /**
   * The `--changed-since` cutoff (UTC) the tasks were built under: a fresh record, whose lines carry their body's
   * date and whose meta the candidates that changed after it.
   */
  readonly changedSince?: string;
}

export interface WrittenRecord {
  readonly repository: string;
  readonly tasks: number;
  /** The two files, as written (joined to the folder given). */
  readonly files: readonly string[];
}

/**
 * The record of each repository, read from the catalog. Refuses a repository the catalog does not
 * know (naming the ones it does) and a selection it does not have, before reading anything else.
 */
export async function readRebuildRecords(catalog: Catalog, options: RebuildRecordOptions): Promise<RebuildRecord[]> {
  const known = (await catalog.repositories()).map((repository) => repository.name);
  const unknown = options.repositories.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    const listed =
      known.length === 0
        ? 'it has none yet (run `repocod curate` or `repocod mine` first)'
        : `it knows ${known.join(', ')}`;
    throw new RepocodError(
      'usage',
      `--repo ${unknown.join(', ')}: no such repository in the catalog ${catalog.path}; ${listed}`,
    );
  }
  const selection = await catalog.selection(options.selectionId);
  if (selection === null && options.selectionId !== undefined) {
    throw new RepocodError(
      'usage',
      `--selection ${options.selectionId}: no such selection in the catalog; ` +
        '`repocod sql "select * from selections"` lists them',
    );
  }
  const chosen =
    selection === null
      ? null
      : { selectionId: selection.selectionId, instanceIds: new Set(selection.picks.map((pick) => pick.instanceId)) };
  const records: RebuildRecord[] = [];
  for (const repository of [...new Set(options.repositories)]) {
    const tasks = await catalog.tasks(repository);
    const baseCommit = tasks[0]?.baseCommit ?? null;
    const environmentKey = baseCommit === null ? null : await catalog.latestEnvironmentKey(repository, baseCommit);
    const envName = environmentKey === null ? null : environmentDirectoryName(projectName(repository), environmentKey);
    const envPath = envName === null ? null : join(options.stateRoot, 'envs', envName);
    const allMined = await catalog.relevantTests(repository);
    const mining = miningBehindTasks(allMined, new Set(tasks.map((task) => task.functionId)));
    records.push(
      buildRebuildRecord({
        repository,
        toolVersion: toolPackageVersion(),
        // A fresh version is built at a commit of its own (--at), not as a stand-in for the manifest's.
        manifestBaseCommit:
          options.changedSince === undefined ? (options.manifestBaseCommits?.get(repository) ?? null) : null,
        tasks,
        selection: chosen,
        validations: await catalog.validations({ repository }),
        environmentKey,
        marker: envPath === null ? null : readEnvironmentMarker(envPath),
        candidates: (await catalog.functionStats(repository)).candidates,
        baseline: mining === null ? null : await catalog.miningBaseline(repository, mining.miningKey),
        mined: allMined.filter((row) => row.miningKey === mining?.miningKey && row.mode === mining.mode),
        stageTimes: await catalog.stageTimes(repository),
        runSeconds: (await catalog.runs({ repository })).map((run) => run.durationSeconds),
        madeWith: options.madeWith,
        freshness:
          options.changedSince === undefined || baseCommit === null
            ? undefined
            : {
                cutoff: options.changedSince,
                bodyDates: await storedBodyDates(catalog, repository, baseCommit),
                dating: (await storedDating(catalog, repository, baseCommit)) ?? undefined,
                candidateIds: (await catalog.functions(repository, { candidatesOnly: true })).map(
                  (fn) => fn.functionId,
                ),
              },
      }),
    );
  }
  return records;
}

/**
 * Writes `lite.json` into `folder`: the selection (default: the latest) with its spec and picks per
 * level, each with its verdict, and the pool's tasks that failed validation (see LiteRecord). Refuses a
 * catalog without that selection.
 */
export async function writeLiteRecord(
  catalog: Catalog,
  folder: string,
  selectionId?: string,
  madeWith?: MadeWith,
): Promise<{ file: string; tasks: number }> {
  const selection = await catalog.selection(selectionId);
  if (selection === null) {
    const which =
      selectionId === undefined
        ? 'no selection in the catalog yet; run `repocod select` first'
        : `--selection ${selectionId}: no such selection in the catalog`;
    throw new RepocodError('usage', `${which}; \`repocod sql "select * from selections"\` lists them`);
  }
  // The pool: every repository with tasks (the picks come from it, and its failed tasks are listed).
  const repositories = new Set<string>();
  const tasks = [];
  // Of a repository built at two commits, the pool is the commit the picks come from (catalog-name.ts).
  const pickedIds = new Set(selection.picks.map((pick) => pick.instanceId));
  const picked = new Set(
    (await catalog.taskSummaries()).filter((task) => pickedIds.has(task.instanceId)).map((task) => task.repository),
  );
  const otherEra = (name: string): boolean =>
    !picked.has(name) && [...picked].some((era) => projectName(era) === projectName(name));
  for (const repository of (await catalog.repositories()).map((known) => known.name)) {
    const ofRepository = otherEra(repository) ? [] : await catalog.tasks(repository);
    if (ofRepository.length === 0) continue;
    repositories.add(repository);
    tasks.push(...ofRepository);
  }
  const validations = [];
  for (const repository of repositories) validations.push(...(await catalog.validations({ repository })));
  const { selectionId: id, spec, picks } = selection;
  const record = buildLiteRecord({
    selectionId: id,
    spec,
    picks,
    tasks,
    validations,
    toolVersion: toolPackageVersion(),
    madeWith,
  });
  const file = join(folder, LITE_RECORD_FILE);
  writeIn(folder, () => writeFileSync(file, formatLiteRecord(record)));
  return { file, tasks: record.tasks };
}

/** Writes `<repository>.jsonl` and `<repository>.meta.json` of each repository into `folder`. */
export async function writeRebuildRecords(
  catalog: Catalog,
  folder: string,
  options: RebuildRecordOptions,
): Promise<WrittenRecord[]> {
  for (const name of options.repositories) {
    // The name becomes a file name: it must stay one file in the folder.
    if (name === '' || name === '.' || name === '..' || /[/\\]/.test(name)) {
      const message = `--repo ${JSON.stringify(name)}: a repository name cannot be a path; give its catalog name`;
      throw new RepocodError('usage', message);
    }
  }
  // A record is written under the manifest name: two commits of one repository would be one file.
  checkOneEraPerRepository(
    options.repositories.map((repository) => ({ repository })),
    'the --repo list',
    () => 'record each commit into a folder of its own (--out)',
  );
  const records = await readRebuildRecords(catalog, options);
  return writeIn(folder, () =>
    records.map((record) => {
      const lines = join(folder, `${record.meta.repository}.jsonl`);
      const meta = join(folder, `${record.meta.repository}.meta.json`);
      writeFileSync(lines, formatRecordLines(record.lines));
      writeFileSync(meta, formatRecordMeta(record.meta));
      return { repository: record.meta.repository, tasks: record.lines.length, files: [lines, meta] };
    }),
  );
}

/** Runs `write` with `folder` made, turning a failure into an error that says what to do. */
function writeIn<T>(folder: string, write: () => T): T {
  try {
    mkdirSync(folder, { recursive: true });
    return write();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const message = `cannot write the records into ${folder} (${reason}); choose a writable folder with --out`;
    throw new RepocodError('usage', message, { cause: error });
  }
}
