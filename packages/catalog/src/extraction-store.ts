import { type DuckDBConnection, listValue, VARCHAR } from '@duckdb/node-api';
import { RepocodError } from '@repocod/core';
import { type FileExtraction, extractionProblem } from './file-extraction.js';
import { appendFile, type CatalogFile, fileFromRow } from './files-table.js';
import { appendFunction, type CatalogFunction, functionFromRow } from './functions-table.js';
import { double, integer, text, timestamp, timestampValueOf } from './typed-cells.js';
import type { CatalogEngine } from './catalog-engine.js';
import { inTransaction, readRows, TEXT_LIST, withAppender } from './catalog-engine.js';

export interface KnownFile {
  readonly contentHash: string;
  readonly extractorFingerprint: string;
}

export interface CatalogRepository {
  readonly name: string;
  readonly root: string;
  readonly updatedAt: Date;
}

export interface FunctionStats {
  readonly functions: number;
  readonly candidates: number;
  /** 0 when there are no functions. */
  readonly meanComplexity: number;
  readonly maxComplexity: number;
}

export interface FunctionFilter {
  /** Only functions that pass the candidate filter (`is_candidate`). */
  readonly candidatesOnly?: boolean;
}

/** The extracted repositories, files and functions: extract's tables. */
export interface ExtractionStore {
  upsertRepository(name: string, root: string): Promise<void>;
  repositories(): Promise<CatalogRepository[]>;
  /** Content hash and extractor fingerprint of every file recorded for the repository, by path. */
  knownFiles(repository: string): Promise<Map<string, KnownFile>>;
  /** The `files` rows of a repository, ordered by path. */
  files(repository: string): Promise<CatalogFile[]>;
  /**
   * Replaces, in one transaction, the file rows and function rows of the given files with the given
   * extractions: either all of them are stored or, on any failure, the catalog is left as it was.
   */
  replaceFiles(repository: string, extractions: readonly FileExtraction[]): Promise<void>;
  /** Forgets files that no longer exist, with their functions. */
  removeFiles(repository: string, files: readonly string[]): Promise<void>;
  /** The functions of a repository ordered by file, then position. */
  functions(repository: string, filter?: FunctionFilter): Promise<CatalogFunction[]>;
  /** Counts and complexity of a repository's functions, for summaries. */
  functionStats(repository: string): Promise<FunctionStats>;
}

export function extractionStore(engine: CatalogEngine): ExtractionStore {
  return {
    upsertRepository(name: string, root: string): Promise<void> {
      return engine.exclusive(`recording repository ${name}`, async (connection) => {
        await connection.run(
          `INSERT INTO repositories (name, root, updated_at) VALUES ($1, $2, $3)
           ON CONFLICT (name) DO UPDATE SET root = excluded.root, updated_at = excluded.updated_at`,
          [name, root, timestampValueOf(new Date())],
        );
      });
    },

    repositories(): Promise<CatalogRepository[]> {
      return engine.exclusive('listing repositories', async (connection) => {
        const rows = await readRows(connection, 'SELECT name, root, updated_at FROM repositories ORDER BY name');
        return rows.map((row) => ({
          name: text(row, 'name'),
          root: text(row, 'root'),
          updatedAt: timestamp(row, 'updated_at'),
        }));
      });
    },

    knownFiles(repository: string): Promise<Map<string, KnownFile>> {
      return engine.exclusive(`reading the files of ${repository}`, async (connection) => {
        const rows = await readRows(
          connection,
          'SELECT file, content_hash, extractor_fingerprint FROM files WHERE repository = $1',
          [repository],
        );
        return new Map(
          rows.map((row) => [
            text(row, 'file'),
            { contentHash: text(row, 'content_hash'), extractorFingerprint: text(row, 'extractor_fingerprint') },
          ]),
        );
      });
    },

    files(repository: string): Promise<CatalogFile[]> {
      return engine.exclusive(`reading the files of ${repository}`, async (connection) => {
        const rows = await readRows(connection, 'SELECT * FROM files WHERE repository = $1 ORDER BY file', [
          repository,
        ]);
        return rows.map(fileFromRow);
      });
    },

    replaceFiles(repository: string, extractions: readonly FileExtraction[]): Promise<void> {
      const problem = extractionProblem(extractions);
      if (problem !== null) {
        return Promise.reject(
          new RepocodError(
            'catalog-error',
            `cannot store the extraction of ${repository}: ${problem}; nothing was written`,
          ),
        );
      }
      if (extractions.length === 0) return engine.exclusive('checking the catalog', async () => undefined);
      const what = `storing ${extractions.length} file(s) of ${repository}`;
      return engine.exclusive(what, (connection) =>
        inTransaction(connection, async () => {
          await deleteFileRows(
            connection,
            repository,
            extractions.map((e) => e.file),
          );
          const extractedAt = new Date();
          await withAppender(connection, 'files', (appender) => {
            for (const extraction of extractions) appendFile(appender, repository, extraction, extractedAt);
          });
          await withAppender(connection, 'functions', (appender) => {
            for (const extraction of extractions) {
              for (const fn of extraction.functions) appendFunction(appender, repository, extraction.contentHash, fn);
            }
          });
        }),
      );
    },

    removeFiles(repository: string, files: readonly string[]): Promise<void> {
      if (files.length === 0) return engine.exclusive('checking the catalog', async () => undefined);
      return engine.exclusive(`removing ${files.length} file(s) of ${repository}`, (connection) =>
        inTransaction(connection, () => deleteFileRows(connection, repository, files)),
      );
    },

    functions(repository: string, filter: FunctionFilter = {}): Promise<CatalogFunction[]> {
      return engine.exclusive(`reading the functions of ${repository}`, async (connection) => {
        const candidates = filter.candidatesOnly === true ? 'AND is_candidate' : '';
        const rows = await readRows(
          connection,
          `SELECT * FROM functions WHERE repository = $1 ${candidates} ORDER BY file, sig_start, qualname`,
          [repository],
        );
        return rows.map(functionFromRow);
      });
    },

    functionStats(repository: string): Promise<FunctionStats> {
      return engine.exclusive(`summarising the functions of ${repository}`, async (connection) => {
        const [row] = await readRows(
          connection,
          `SELECT count(*)::INTEGER AS functions, (count(*) FILTER (WHERE is_candidate))::INTEGER AS candidates,
                  coalesce(avg(cc), 0)::DOUBLE AS mean_cc, coalesce(max(cc), 0)::INTEGER AS max_cc
             FROM functions WHERE repository = $1`,
          [repository],
        );
        if (row === undefined) return { functions: 0, candidates: 0, meanComplexity: 0, maxComplexity: 0 };
        return {
          functions: integer(row, 'functions'),
          candidates: integer(row, 'candidates'),
          meanComplexity: double(row, 'mean_cc'),
          maxComplexity: integer(row, 'max_cc'),
        };
      });
    },
  };
}

/** Deletes the `functions` and `files` rows of the given files (a semi-join, fast for long lists). */
async function deleteFileRows(
  connection: DuckDBConnection,
  repository: string,
  files: readonly string[],
): Promise<void> {
  const list = listValue([...files]);
  for (const table of ['functions', 'files']) {
    await connection.run(
      `DELETE FROM ${table} WHERE repository = $1 AND file IN (SELECT unnest($2))`,
      [repository, list],
      [VARCHAR, TEXT_LIST],
    );
  }
}
