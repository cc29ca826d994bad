import { double, type Row, text, timestamp } from './typed-cells.js';

/** How long one stage of one repository took when it last finished, a row of `stage_times`. */
export interface StageTime {
  readonly repository: string;
  /** The flow's stage name (prepare, extract, mine, tasks, validate). */
  readonly stage: string;
  /** Wall seconds from the stage's start to its end. */
  readonly seconds: number;
  readonly finishedAt: Date;
}

export function stageTimeFromRow(row: Row): StageTime {
  return {
    repository: text(row, 'repository'),
    stage: text(row, 'stage'),
    seconds: double(row, 'seconds'),
    finishedAt: timestamp(row, 'finished_at'),
  };
}
