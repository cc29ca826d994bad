import { integer, text } from './typed-cells.js';
import type { CatalogEngine } from './catalog-engine.js';
import { readRows } from './catalog-engine.js';

/** What the flow's status shows of a repository: its functions, candidates, mined functions and tasks. */
export interface RepositoryCounts {
  readonly repository: string;
  readonly functions: number;
  readonly candidates: number;
  /** Functions with a mining answer under any mining key. */
  readonly mined: number;
  readonly withTests: number;
  readonly tasks: number;
}

/** Counts over several stages' tables, per repository: one read for the flow's status. */
export interface RepositoryCountsStore {
  repositoryCounts(): Promise<RepositoryCounts[]>;
}

const COUNTS_SQL = [
  'WITH fns AS (',
  '  SELECT repository, count(*) AS functions, count(*) FILTER (WHERE is_candidate) AS candidates',
  '  FROM functions GROUP BY repository),',
  'mined AS (',
  '  SELECT repository, count(DISTINCT function_id) AS mined,',
  "    count(DISTINCT function_id) FILTER (WHERE status = 'tests') AS with_tests",
  '  FROM relevant_tests GROUP BY repository),',
  't AS (SELECT repository, count(*) AS tasks FROM tasks GROUP BY repository)',
  'SELECT r.name AS repository, coalesce(fns.functions, 0)::INTEGER AS functions,',
  '  coalesce(fns.candidates, 0)::INTEGER AS candidates, coalesce(mined.mined, 0)::INTEGER AS mined,',
  '  coalesce(mined.with_tests, 0)::INTEGER AS with_tests, coalesce(t.tasks, 0)::INTEGER AS tasks',
  'FROM repositories r',
  '  LEFT JOIN fns ON fns.repository = r.name',
  '  LEFT JOIN mined ON mined.repository = r.name',
  '  LEFT JOIN t ON t.repository = r.name',
  'ORDER BY r.name',
].join('\n');

export function repositoryCountsStore(engine: CatalogEngine): RepositoryCountsStore {
  return {
    repositoryCounts(): Promise<RepositoryCounts[]> {
      return engine.exclusive('counting each repository', async (connection) =>
        (await readRows(connection, COUNTS_SQL)).map((row) => ({
          repository: text(row, 'repository'),
          functions: integer(row, 'functions'),
          candidates: integer(row, 'candidates'),
          mined: integer(row, 'mined'),
          withTests: integer(row, 'with_tests'),
          tasks: integer(row, 'tasks'),
        })),
      );
    },
  };
}
