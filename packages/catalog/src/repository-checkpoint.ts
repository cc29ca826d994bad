import { RepocodError } from '@repocod/core';

/**
 * A repository's checkpoint: the catalog rows that cost test runs to make, one Parquet file per table,
 * so that a rebuild survives the machine it ran on (commit the folder; restore it into an empty
 * catalog on the next machine, and mining, tasks and validation resume from there).
 *
 * What it holds and why:
 * - runs and their test_results: mining's reference jobs (the baseline shards, with a traced shard's
 *   coverage in mining_coverage under the shard's key), the tasks stage's collect runs and validation's
 *   runs. A stage finds a job's runs by its hash and does not run it again.
 * - mining_baseline, mining_coverage, relevant_tests: what mining found, per mining key.
 * - validations and stage_times: the verdicts (reused while the task's hash is the same) and the
 *   stage times the records report.
 * - job_costs: what the jobs of those rows cost (jobs, processes, test executions, busy seconds per stage and
 *   phase), so that a build carried on over several machines is counted whole by `repocod cost`: the jobs run
 *   after a restore add to the sums restored. A checkpoint written before it was kept restores without it.
 * What it leaves out: files and functions (extract makes them again in seconds, byte for byte), tasks
 * (their patches are most of a catalog's bytes; the tasks stage makes them again from mining's
 * results and finds its runs here) and selections (a spec makes them again).
 *
 * Rows are written in primary key order, so the same rows give the same files and an unchanged table
 * does not change the commit. Restoring adds the rows the catalog lacks and keeps those it has.
 */

export interface CheckpointTable {
  readonly name: string;
  /** The rows of one repository. */
  readonly where: string;
  /** The primary key, the order rows are written in. */
  readonly orderBy: string;
}

export const CHECKPOINT_TABLES: readonly CheckpointTable[] = [
  { name: 'runs', where: 'repository = $repository', orderBy: 'run_id' },
  {
    name: 'test_results',
    where: 'run_id IN (SELECT run_id FROM runs WHERE repository = $repository)',
    orderBy: 'run_id, node_id',
  },
  { name: 'mining_baseline', where: 'repository = $repository', orderBy: 'mining_key, node_id' },
  { name: 'mining_coverage', where: 'repository = $repository', orderBy: 'mining_key, function_id' },
  { name: 'relevant_tests', where: 'repository = $repository', orderBy: 'mining_key, mode, function_id' },
  { name: 'validations', where: 'repository = $repository', orderBy: 'instance_id, validation_key' },
  { name: 'stage_times', where: 'repository = $repository', orderBy: 'stage' },
  { name: 'job_costs', where: 'repository = $repository', orderBy: 'stage, phase' },
];

export const CHECKPOINT_MANIFEST = 'checkpoint.json';
export const CHECKPOINT_FORMAT = 'repocod-checkpoint/1';

/** checkpoint.json: what the folder holds, checked on restore. */
export interface CheckpointManifest {
  readonly format: typeof CHECKPOINT_FORMAT;
  readonly repository: string;
  /** The catalog schema version the rows were written under; a catalog restores only its own or older. */
  readonly schema_version: number;
  /** Rows per table file, to tell a whole file from a cut one. */
  readonly tables: Readonly<Record<string, number>>;
}

export interface CheckpointTableCount {
  readonly table: string;
  readonly rows: number;
  /** On restore: the rows the catalog did not have. */
  readonly added?: number;
}

export function checkpointFile(table: CheckpointTable): string {
  return `${table.name}.parquet`;
}

/** A path as an SQL string literal (COPY and read_parquet take no parameters). */
export function sqlPath(path: string): string {
  return `'${path.replaceAll("'", "''")}'`;
}

/** Reads checkpoint.json's text; a file that is not one names itself and what is wrong. */
export function parseCheckpointManifest(text: string, file: string, latestSchema: number): CheckpointManifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new RepocodError('parse-error', `${file}: not JSON (${(error as Error).message})`);
  }
  const manifest = value as Partial<CheckpointManifest> | null;
  if (manifest === null || typeof manifest !== 'object' || manifest.format !== CHECKPOINT_FORMAT) {
    throw new RepocodError('parse-error', `${file}: field format must be "${CHECKPOINT_FORMAT}"`);
  }
  if (typeof manifest.repository !== 'string' || manifest.repository === '') {
    throw new RepocodError('parse-error', `${file}: field repository must name the repository`);
  }
  if (!Number.isInteger(manifest.schema_version)) {
    throw new RepocodError('parse-error', `${file}: field schema_version must be a whole number`);
  }
  if ((manifest.schema_version as number) > latestSchema) {
    throw new RepocodError(
      'parse-error',
      `${file}: written under catalog schema ${manifest.schema_version}, newer than this tool's ${latestSchema}; ` +
        'update repocod-kit before restoring it',
    );
  }
  const tables = manifest.tables;
  if (tables === null || typeof tables !== 'object') {
    throw new RepocodError('parse-error', `${file}: field tables must map each table to its row count`);
  }
  for (const [table, rows] of Object.entries(tables)) {
    if (!CHECKPOINT_TABLES.some((known) => known.name === table)) {
      throw new RepocodError('parse-error', `${file}: tables.${table} is not a table a checkpoint holds`);
    }
    if (!Number.isInteger(rows) || (rows as number) < 0) {
      throw new RepocodError('parse-error', `${file}: tables.${table} must be a row count`);
    }
  }
  return manifest as CheckpointManifest;
}
