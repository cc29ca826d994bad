import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RepocodError } from '@repocod/core';
import { ensureFolder } from './ensure-folder.js';
import { latestSchemaVersion } from './migrations.js';
import {
  CHECKPOINT_FORMAT,
  CHECKPOINT_MANIFEST,
  CHECKPOINT_TABLES,
  type CheckpointManifest,
  type CheckpointTableCount,
  checkpointFile,
  parseCheckpointManifest,
  sqlPath,
} from './repository-checkpoint.js';
import { integer } from './typed-cells.js';
import type { CatalogEngine } from './catalog-engine.js';
import { countRows, inTransaction, readRows } from './catalog-engine.js';

/** A repository's costly rows as committed Parquet, and back (see repository-checkpoint.ts). */
export interface CheckpointStore {
  /**
   * Writes the repository's checkpoint into the folder (see repository-checkpoint.ts): one Parquet file
   * per table and checkpoint.json, each file replaced whole.
   */
  saveCheckpoint(repository: string, folder: string): Promise<CheckpointTableCount[]>;
  /** Adds a checkpoint's rows that the catalog lacks, in one transaction; returns the rows read and added. */
  restoreCheckpoint(repository: string, folder: string): Promise<CheckpointTableCount[]>;
}

export function checkpointStore(engine: CatalogEngine): CheckpointStore {
  return {
    saveCheckpoint(repository: string, folder: string): Promise<CheckpointTableCount[]> {
      return engine.exclusive(`writing the checkpoint of ${repository} to ${folder}`, async (connection) => {
        await ensureFolder(folder);
        const counts: CheckpointTableCount[] = [];
        for (const table of CHECKPOINT_TABLES) {
          const where = table.where.replaceAll('$repository', `'${repository.replaceAll("'", "''")}'`);
          const select = `SELECT * FROM ${table.name} WHERE ${where} ORDER BY ${table.orderBy}`;
          const file = join(folder, checkpointFile(table));
          // Written beside, then renamed: a run killed mid-write leaves the previous file whole.
          await connection.run(`COPY (${select}) TO ${sqlPath(`${file}.partial`)} (FORMAT parquet, COMPRESSION zstd)`);
          await rename(`${file}.partial`, file);
          const [row] = await readRows(connection, `SELECT count(*) AS n FROM read_parquet(${sqlPath(file)})`);
          counts.push({ table: table.name, rows: integer(row ?? {}, 'n') });
        }
        const manifest: CheckpointManifest = {
          format: CHECKPOINT_FORMAT,
          repository,
          schema_version: latestSchemaVersion(),
          tables: Object.fromEntries(counts.map(({ table, rows }) => [table, rows])),
        };
        await writeFile(join(folder, CHECKPOINT_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
        return counts;
      });
    },

    restoreCheckpoint(repository: string, folder: string): Promise<CheckpointTableCount[]> {
      return engine.exclusive(`restoring the checkpoint of ${repository} from ${folder}`, async (connection) => {
        const manifestFile = join(folder, CHECKPOINT_MANIFEST);
        const text = await readFile(manifestFile, 'utf8').catch((error: NodeJS.ErrnoException) => {
          throw new RepocodError(
            error.code === 'ENOENT' ? 'path-not-found' : 'file-unreadable',
            `${manifestFile}: no checkpoint there (${error.code ?? error.message}); write one with ` +
              `\`repocod checkpoint save ${repository}\``,
          );
        });
        const manifest = parseCheckpointManifest(text, manifestFile, latestSchemaVersion());
        if (manifest.repository !== repository) {
          throw new RepocodError(
            'parse-error',
            `${manifestFile}: the checkpoint of ${manifest.repository}, not of ${repository}`,
          );
        }
        const tables = CHECKPOINT_TABLES.filter((table) => manifest.tables[table.name] !== undefined);
        for (const table of tables) {
          const file = join(folder, checkpointFile(table));
          const [row] = await readRows(connection, `SELECT count(*) AS n FROM read_parquet(${sqlPath(file)})`);
          const rows = integer(row ?? {}, 'n');
          if (rows !== manifest.tables[table.name]) {
            throw new RepocodError(
              'parse-error',
              `${file}: ${rows} row(s), checkpoint.json says ${manifest.tables[table.name]}; the folder is not ` +
                'one checkpoint (save it again, or restore it from the commit that wrote it)',
            );
          }
        }
        return inTransaction(connection, async () => {
          const counts: CheckpointTableCount[] = [];
          for (const table of tables) {
            const file = join(folder, checkpointFile(table));
            const before = await countRows(connection, table.name);
            // By name: a checkpoint of an older schema lacks the columns added since, which take their defaults.
            await connection.run(
              `INSERT OR IGNORE INTO ${table.name} BY NAME SELECT * FROM read_parquet(${sqlPath(file)})`,
            );
            const added = (await countRows(connection, table.name)) - before;
            counts.push({ table: table.name, rows: manifest.tables[table.name] ?? 0, added });
          }
          return counts;
        });
      });
    },
  };
}
