import { type StageTime, stageTimeFromRow } from './stage-times-table.js';
import { timestampValueOf } from './typed-cells.js';
import type { CatalogEngine } from './catalog-engine.js';
import { readRows } from './catalog-engine.js';

/** The wall time of each repository's stages as last finished: the flow's table. */
export interface StageTimeStore {
  /** Records how long a stage of a repository took, replacing what that stage recorded before. */
  recordStageTime(time: StageTime): Promise<void>;
  /** The stage times of a repository, ordered by stage name. */
  stageTimes(repository: string): Promise<StageTime[]>;
}

export function stageTimeStore(engine: CatalogEngine): StageTimeStore {
  return {
    recordStageTime(time: StageTime): Promise<void> {
      return engine.exclusive(`recording the time of ${time.stage} for ${time.repository}`, async (connection) => {
        await connection.run(
          `INSERT INTO stage_times (repository, stage, seconds, finished_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (repository, stage) DO UPDATE SET seconds = excluded.seconds, finished_at = ` +
            `excluded.finished_at`,
          [time.repository, time.stage, time.seconds, timestampValueOf(time.finishedAt)],
        );
      });
    },

    stageTimes(repository: string): Promise<StageTime[]> {
      return engine.exclusive(`reading the stage times of ${repository}`, async (connection) => {
        const rows = await readRows(connection, 'SELECT * FROM stage_times WHERE repository = $1 ORDER BY stage', [
          repository,
        ]);
        return rows.map(stageTimeFromRow);
      });
    },
  };
}
