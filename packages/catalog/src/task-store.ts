import { INTEGER, listValue } from '@duckdb/node-api';
import type { LevelLabel, LevelMode } from '@repocod/core';
import { LEVEL_MODES } from '@repocod/core';
import {
  appendTask,
  pickFromRow,
  type SelectionPick,
  type TaskLevel,
  taskFromRow,
  taskLevelFromRow,
  TASK_SUMMARY_QUERY,
  type TaskSummary,
  taskSummaryFromRow,
  type TaskRow,
} from './tasks-tables.js';
import { type Row, integer, text, timestamp, timestampValueOf } from './typed-cells.js';
import type { CatalogEngine } from './catalog-engine.js';
import { inTransaction, readRows, TEXT_LIST, withAppender } from './catalog-engine.js';

export type StoredTask = TaskRow & { readonly builtAt: Date };

/** What `rankTasks` ranks by: SQL expressions over the `tasks` columns, and a quota per level. */
export interface RankQuery {
  readonly score: string;
  readonly filter: string;
  readonly quotas: Readonly<Record<TaskLevel, number>>;
}

export type RankedTask = SelectionPick & {
  readonly repository: string;
  readonly solutionTokens: number;
  /** Tasks of this level that passed the filter. */
  readonly available: number;
  readonly quota: number;
  readonly picked: boolean;
};

/** A candidate function with what its task would be given before any test runs. */
export interface ProspectiveTask {
  readonly functionId: string;
  readonly instanceId: string;
  readonly level: TaskLevel;
}

export interface ScoredProspectiveTask {
  readonly functionId: string;
  /** null when the score is SQL NULL. */
  readonly score: number | null;
  /** Whether the spec's filter keeps it (NULL counts as false, as in a WHERE). */
  readonly kept: boolean;
  readonly solutionTokens: number;
}

/** The `tasks` columns a task has before its tests are mined: what a Lite-first spec may use. */
export const PROSPECTIVE_TASK_COLUMNS = [
  'instance_id',
  'repository',
  'function_id',
  'file',
  'qualname',
  'prompt',
  'solution',
  'prompt_lines',
  'solution_lines',
  'prompt_tokens',
  'solution_tokens',
  'cc',
  'level',
] as const;

/** The tasks and the selections over them: the tasks and select stages' tables. */
export interface TaskStore {
  /** Replaces every task of the repository with these, in one transaction. */
  replaceTasks(repository: string, tasks: readonly TaskRow[]): Promise<void>;
  /**
   * Sets every task's `level` to its label under `mode` (from `task_levels`): choosing another mode
   * re-labels from the catalog, nothing is mined or classified again. Returns the instance ids of the
   * tasks that have no label under it (built before the modes existed), which are left as they were.
   */
  relabelTasks(mode: LevelMode): Promise<string[]>;
  /** Tasks ordered by instance id, of one repository or of all. */
  tasks(repository?: string): Promise<StoredTask[]>;
  task(instanceId: string): Promise<StoredTask | null>;
  /**
   * Every task without its texts (prompt, solution, statements, patches), with the patches' sha256
   * instead: what a table of all the tasks needs, a fraction of the bytes for big FAIL_TO_PASS sets.
   */
  taskSummaries(): Promise<TaskSummary[]>;
  /**
   * Every task that passed its checks and the filter, ranked per level by the score (descending), then
   * solution tokens (descending), then instance id: the deterministic tie-break. `picked` marks the
   * first `quota` of each level. `score` and `filter` are SQL expressions over the tasks columns.
   * `failedValidation` names tasks whose validation failed: in a level with enough other tasks to fill
   * its quota they are passed over (not picked; the next take their places, keeping their ranks), and in
   * a level short of those the picks are the first quota as ever, failed ones included (there is nothing to
   * replace them with; a release leaves them out).
   */
  rankTasks(query: RankQuery, failedValidation?: readonly string[]): Promise<RankedTask[]>;
  /**
   * The score and the filter of a selection spec over tasks that do not exist yet: a repository's
   * candidate functions, each with the instance id and level it would have, as a relation named
   * `tasks` with the columns known before mining (PROSPECTIVE_TASK_COLUMNS). Lite-first mining ranks
   * candidates with it; a spec that uses a column known only after mining is refused by DuckDB.
   */
  scoreProspectiveTasks(
    repository: string,
    query: Pick<RankQuery, 'score' | 'filter'>,
    tasks: readonly ProspectiveTask[],
  ): Promise<ScoredProspectiveTask[]>;
  /** Stores a selection (its spec and its picks) under its id, replacing an earlier one of that id. */
  saveSelection(selectionId: string, spec: string, picks: readonly SelectionPick[]): Promise<void>;
  /** A stored selection's spec and picks; null when there is none of that id (the latest when no id). */
  selection(
    selectionId?: string,
  ): Promise<{ selectionId: string; spec: string; createdAt: Date; picks: SelectionPick[] } | null>;
  /** Every stored selection's id and spec, the newest first (without their picks). */
  selections(): Promise<{ selectionId: string; spec: string; createdAt: Date }[]>;
  /** Each instance id a migration renamed (`instance_id_renames`), by old id. */
  instanceIdRenames(): Promise<InstanceIdRename[]>;
}

/** A row of `instance_id_renames` (migration 11). */
export interface InstanceIdRename {
  readonly oldId: string;
  readonly newId: string;
  readonly repository: string;
  readonly reason: string;
}

function levelsByTask(rows: readonly Row[]): Map<string, Partial<Record<LevelMode, LevelLabel>>> {
  const byTask = new Map<string, Partial<Record<LevelMode, LevelLabel>>>();
  for (const row of rows) {
    const { instanceId, mode, label } = taskLevelFromRow(row);
    const levels = byTask.get(instanceId) ?? {};
    levels[mode] = label;
    byTask.set(instanceId, levels);
  }
  return byTask;
}

export function taskStore(engine: CatalogEngine): TaskStore {
  return {
    replaceTasks(repository: string, tasks: readonly TaskRow[]): Promise<void> {
      return engine.exclusive(`storing ${tasks.length} task(s) of ${repository}`, (connection) =>
        inTransaction(connection, async () => {
          await connection.run('DELETE FROM tasks WHERE repository = $1', [repository]);
          const builtAt = new Date();
          await withAppender(connection, 'tasks', (appender) => {
            for (const task of tasks) appendTask(appender, task, builtAt);
          });
          await connection.run('DELETE FROM task_levels WHERE repository = $1', [repository]);
          await withAppender(connection, 'task_levels', (appender) => {
            for (const task of tasks)
              for (const mode of LEVEL_MODES) {
                const label = task.levels[mode];
                if (label === undefined) continue;
                for (const value of [task.instanceId, repository, mode, label.level, JSON.stringify(label.calls)])
                  appender.appendVarchar(value);
                appender.endRow();
              }
          });
        }),
      );
    },

    relabelTasks(mode: LevelMode): Promise<string[]> {
      return engine.exclusive(`re-labelling the tasks under ${mode}`, (connection) =>
        inTransaction(connection, async () => {
          await connection.run(
            `UPDATE tasks SET level = labels.level, level_mode = labels.mode
               FROM task_levels AS labels WHERE labels.instance_id = tasks.instance_id AND labels.mode = $1`,
            [mode],
          );
          const unlabelled = await readRows(
            connection,
            `SELECT instance_id FROM tasks WHERE NOT EXISTS (SELECT 1 FROM task_levels AS labels
               WHERE labels.instance_id = tasks.instance_id AND labels.mode = $1) ORDER BY instance_id`,
            [mode],
          );
          return unlabelled.map((row) => text(row, 'instance_id'));
        }),
      );
    },

    tasks(repository?: string): Promise<StoredTask[]> {
      return engine.exclusive('reading the tasks', async (connection) => {
        const where = repository === undefined ? '' : ' WHERE repository = $1';
        const parameters = repository === undefined ? [] : [repository];
        const rows = await readRows(connection, `SELECT * FROM tasks${where} ORDER BY instance_id`, parameters);
        const labels = await readRows(connection, `SELECT * FROM task_levels${where}`, parameters);
        const levels = levelsByTask(labels);
        return rows.map((row) => taskFromRow(row, levels.get(text(row, 'instance_id'))));
      });
    },

    task(instanceId: string): Promise<StoredTask | null> {
      return engine.exclusive(`reading the task ${instanceId}`, async (connection) => {
        const [row] = await readRows(connection, 'SELECT * FROM tasks WHERE instance_id = $1', [instanceId]);
        if (row === undefined) return null;
        const labels = await readRows(connection, 'SELECT * FROM task_levels WHERE instance_id = $1', [instanceId]);
        return taskFromRow(row, levelsByTask(labels).get(instanceId));
      });
    },

    taskSummaries(): Promise<TaskSummary[]> {
      return engine.exclusive('reading the task summaries', async (connection) => {
        const rows = await readRows(connection, TASK_SUMMARY_QUERY);
        return rows.map(taskSummaryFromRow);
      });
    },

    rankTasks(query: RankQuery, failedValidation: readonly string[] = []): Promise<RankedTask[]> {
      return engine.exclusive('ranking the tasks', async (connection) => {
        const reader = await connection.runAndReadAll(
          `WITH scored AS (
             SELECT instance_id, repository, level, CAST((${query.score}) AS DOUBLE) AS score, solution_tokens,
                    list_contains($4, instance_id) AS failed
               FROM tasks WHERE checks_passed AND (${query.filter})
           ), ranked AS (
             SELECT *, CAST(row_number() OVER (PARTITION BY level ORDER BY score DESC, solution_tokens DESC, ` +
            `instance_id) AS INTEGER) AS rank,
                    row_number() OVER (PARTITION BY level, failed ORDER BY score DESC, solution_tokens DESC, ` +
            `instance_id) AS rank_among_alike,
                    CAST(count(*) OVER (PARTITION BY level) AS INTEGER) AS available,
                    count(*) FILTER (WHERE NOT failed) OVER (PARTITION BY level) AS not_failed
               FROM scored
           )
           SELECT ranked.* EXCLUDE (failed, rank_among_alike, not_failed), quotas.quota,
                  CASE WHEN ranked.not_failed >= quotas.quota THEN NOT ranked.failed AND ranked.rank_among_alike <= ` +
            `quotas.quota
                       ELSE ranked.rank <= quotas.quota END AS picked
             FROM ranked JOIN (VALUES ('self-contained', $1), ('file-level', $2), ('repo-level', $3)) AS ` +
            `quotas(level, ` +
            `quota) USING (level)
            ORDER BY level, rank`,
          [
            query.quotas['self-contained'],
            query.quotas['file-level'],
            query.quotas['repo-level'],
            listValue([...failedValidation]),
          ],
          [INTEGER, INTEGER, INTEGER, TEXT_LIST],
        );
        const rows: Row[] = reader.getRowObjects();
        return rows.map((row) => ({
          ...pickFromRow(row),
          repository: text(row, 'repository'),
          solutionTokens: integer(row, 'solution_tokens'),
          available: integer(row, 'available'),
          quota: integer(row, 'quota'),
          picked: row.picked === true,
        }));
      });
    },

    scoreProspectiveTasks(
      repository: string,
      query: Pick<RankQuery, 'score' | 'filter'>,
      tasks: readonly ProspectiveTask[],
    ): Promise<ScoredProspectiveTask[]> {
      return engine.exclusive(`scoring the candidates of ${repository}`, async (connection) => {
        // A CTE named tasks hides the table of that name, so the spec's SQL reads these rows as they are.
        const reader = await connection.runAndReadAll(
          `WITH given AS (
             SELECT unnest($2::TEXT[]) AS function_id, unnest($3::TEXT[]) AS instance_id, unnest($4::TEXT[]) AS level
           ), tasks AS (
             SELECT given.instance_id, f.repository, f.function_id, f.file, f.qualname, f.prompt, f.solution, ` +
            `f.prompt_lines,
                    f.solution_lines, f.prompt_tokens, f.solution_tokens, f.cc, given.level
               FROM functions f JOIN given USING (function_id) WHERE f.repository = $1
           )
           SELECT function_id, CAST((${query.score}) AS DOUBLE) AS score, coalesce((${query.filter}), false) AS ` +
            `kept, ` +
            `solution_tokens FROM tasks`,
          [
            repository,
            listValue(tasks.map((task) => task.functionId)),
            listValue(tasks.map((task) => task.instanceId)),
            listValue(tasks.map((task) => task.level)),
          ],
        );
        const rows: Row[] = reader.getRowObjects();
        return rows.map((row) => ({
          functionId: text(row, 'function_id'),
          score: row.score === null ? null : Number(row.score),
          kept: row.kept === true,
          solutionTokens: integer(row, 'solution_tokens'),
        }));
      });
    },

    saveSelection(selectionId: string, spec: string, picks: readonly SelectionPick[]): Promise<void> {
      return engine.exclusive(`storing the selection ${selectionId}`, (connection) =>
        inTransaction(connection, async () => {
          await connection.run('DELETE FROM selection_picks WHERE selection_id = $1', [selectionId]);
          await connection.run('DELETE FROM selections WHERE selection_id = $1', [selectionId]);
          await connection.run('INSERT INTO selections VALUES ($1, $2, $3)', [
            selectionId,
            spec,
            timestampValueOf(new Date()),
          ]);
          for (const pick of picks) {
            await connection.run('INSERT INTO selection_picks VALUES ($1, $2, $3, $4, $5)', [
              selectionId,
              pick.instanceId,
              pick.level,
              pick.score,
              pick.rank,
            ]);
          }
        }),
      );
    },

    selection(
      selectionId?: string,
    ): Promise<{ selectionId: string; spec: string; createdAt: Date; picks: SelectionPick[] } | null> {
      return engine.exclusive('reading a selection', async (connection) => {
        const [found] =
          selectionId === undefined
            ? await readRows(connection, 'SELECT * FROM selections ORDER BY created_at DESC LIMIT 1')
            : await readRows(connection, 'SELECT * FROM selections WHERE selection_id = $1', [selectionId]);
        if (found === undefined) return null;
        const id = text(found, 'selection_id');
        const picks = await readRows(
          connection,
          'SELECT * FROM selection_picks WHERE selection_id = $1 ORDER BY level, rank',
          [id],
        );
        return {
          selectionId: id,
          spec: text(found, 'spec'),
          createdAt: timestamp(found, 'created_at'),
          picks: picks.map(pickFromRow),
        };
      });
    },

    selections() {
      return engine.exclusive('reading the selections', async (connection) =>
        (await readRows(connection, 'SELECT * FROM selections ORDER BY created_at DESC, selection_id')).map((row) => ({
          selectionId: text(row, 'selection_id'),
          spec: text(row, 'spec'),
          createdAt: timestamp(row, 'created_at'),
        })),
      );
    },

    instanceIdRenames() {
      return engine.exclusive('reading the instance id renames', async (connection) =>
        (await readRows(connection, 'SELECT * FROM instance_id_renames ORDER BY old_id')).map((row) => ({
          oldId: text(row, 'old_id'),
          newId: text(row, 'new_id'),
          repository: text(row, 'repository'),
          reason: text(row, 'reason'),
        })),
      );
    },
  };
}
