import type { SelectionPick, StoredTask, StoredValidation } from '@repocod/catalog';
import type { MadeWith } from '../records/rebuild-record.js';
import { currentVerdicts, verdictValue } from '../records/rebuild-record.js';
import { projectName, releaseInstanceId } from '@repocod/runner';

/** The file `repocod record --lite` writes beside the per-repository records. */
export const LITE_RECORD_FILE = 'lite.json';

/** One picked task of a level, in rank order. */
export interface LitePick {
  readonly rank: number;
  readonly instance_id: string;
  readonly repository: string;
  readonly score: number;
  /** Its latest validation of its current content, as in the records: null when it has none. */
  readonly valid: boolean | null;
}

export interface LiteLevel {
  /** The spec's quota for the level; null when the spec names none. */
  readonly quota: number | null;
  readonly picked: number;
  /** The score of the level's last pick: what a task had to reach to be picked. */
  readonly cutoff_score: number | null;
  readonly valid: number;
  readonly failed: number;
  readonly not_validated: number;
  readonly picks: readonly LitePick[];
}

/**
 * A selection as it is committed (`datasets/repocod/rebuilt/lite.json`): its id, the spec it was made
 * with, the picked tasks per level with their rank, score and verdict, and counts per repository. No
 * time and no path: the same catalog always gives the same bytes, so a later change that moves a pick
 * shows in review.
 */
export interface LiteRecord {
  readonly selection: string;
  readonly spec: unknown;
  readonly tool_version: string;
  /** The tool with its commit, and the checkpoint digest of each repository of the pool; null when not given. */
  readonly made_with: { readonly tool: string; readonly checkpoints: Readonly<Record<string, string | null>> } | null;
  readonly tasks: number;
  readonly by_repository: Readonly<Record<string, number>>;
  readonly levels: Readonly<Record<string, LiteLevel>>;
  /**
   * Tasks of the pool whose latest validation failed, which the selection passes over for the next of
   * their level (a replaced pick among them), each with its level and the check it failed.
   */
  readonly failed_validation: readonly FailedTask[];
}

export interface FailedTask {
  readonly instance_id: string;
  readonly repository: string;
  readonly level: string;
  /** The first check that did not pass and its line: `passes-with-gold: the whole FAIL_TO_PASS …`. */
  readonly failed_check: string;
}

export interface LiteRecordInputs {
  readonly selectionId: string;
  /** The stored spec, as JSON text. */
  readonly spec: string;
  readonly picks: readonly SelectionPick[];
  /** The tasks of every repository the picks come from. */
  readonly tasks: readonly StoredTask[];
  readonly validations: readonly StoredValidation[];
  readonly toolVersion: string;
  readonly madeWith?: MadeWith;
}

const LEVEL_ORDER = ['self-contained', 'file-level', 'repo-level'];

// Tasks and repositories are named as a release names them (released-task.ts); checkpoints by catalog name.
export function buildLiteRecord(inputs: LiteRecordInputs): LiteRecord {
  const spec = JSON.parse(inputs.spec) as { quotas?: Record<string, number> };
  const tasks = new Map(inputs.tasks.map((task) => [task.instanceId, task]));
  const verdicts = currentVerdicts(inputs.tasks, inputs.validations);
  const levels = [...new Set([...LEVEL_ORDER, ...inputs.picks.map((pick) => pick.level)])].filter(
    (level) => spec.quotas?.[level] !== undefined || inputs.picks.some((pick) => pick.level === level),
  );
  const byRepository: Record<string, number> = {};
  const record: Record<string, LiteLevel> = {};
  for (const level of levels) {
    const picks = inputs.picks
      .filter((pick) => pick.level === level)
      .sort((a, b) => a.rank - b.rank)
      .map((pick): LitePick => {
        const repository = projectName(tasks.get(pick.instanceId)?.repository ?? '');
        byRepository[repository] = (byRepository[repository] ?? 0) + 1;
        const valid = verdictValue(verdicts.get(pick.instanceId));
        return {
          rank: pick.rank,
          instance_id: releaseInstanceId(pick.instanceId),
          repository,
          score: pick.score,
          valid,
        };
      });
    record[level] = {
      quota: spec.quotas?.[level] ?? null,
      picked: picks.length,
      cutoff_score: picks.at(-1)?.score ?? null,
      valid: picks.filter((pick) => pick.valid === true).length,
      failed: picks.filter((pick) => pick.valid === false).length,
      not_validated: picks.filter((pick) => pick.valid === null).length,
      picks,
    };
  }
  const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  const sortedRepositories = Object.fromEntries(Object.entries(byRepository).sort(([a], [b]) => compare(a, b)));
  const failed = [...verdicts.values()]
    .filter((verdict) => verdict.status === 'failed')
    .sort((a, b) => compare(a.instanceId, b.instanceId))
    .map((verdict): FailedTask => {
      const check = verdict.checks.find((one) => one.status === 'failed');
      return {
        instance_id: releaseInstanceId(verdict.instanceId),
        repository: projectName(verdict.repository),
        level: tasks.get(verdict.instanceId)?.level ?? '',
        failed_check: check === undefined ? '' : `${check.check}: ${check.detail}`,
      };
    });
  const repositoriesOfPool = [...new Set(inputs.tasks.map((task) => task.repository))].sort(compare);
  return {
    selection: inputs.selectionId,
    spec,
    tool_version: inputs.toolVersion,
    made_with:
      inputs.madeWith === undefined
        ? null
        : {
            tool: inputs.madeWith.tool,
            checkpoints: Object.fromEntries(
              repositoriesOfPool.map((repository) => [
                repository,
                inputs.madeWith?.checkpoints.get(repository) ?? null,
              ]),
            ),
          },
    tasks: inputs.picks.length,
    by_repository: sortedRepositories,
    levels: record,
    failed_validation: failed,
  };
}

export function formatLiteRecord(record: LiteRecord): string {
  return `${JSON.stringify(record, null, 2)}\n`;
}
