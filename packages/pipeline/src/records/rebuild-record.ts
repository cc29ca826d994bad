import type { MiningBaselineRow, StageTime, StoredRelevantTests, StoredTask, StoredValidation } from '@repocod/catalog';
import type { LevelMode } from '@repocod/core';
import { CONTEXT_LEVELS, LEVEL_MODES } from '@repocod/core';
import { networkBound } from '@repocod/mining';
import type { EnvironmentMarker } from '@repocod/runner';
import { projectName, releaseInstanceId } from '@repocod/runner';
import { currentValidations, taskHash } from '@repocod/validate';
import type { BodyDateFields, FreshnessInputs, RecordFreshness } from './record-freshness.js';
import { recordFreshness } from './record-freshness.js';
import type { TaskFacts } from './task-facts.js';
import { taskFactsOf } from './task-facts.js';
import { releasedTask } from '../release/released-task.js';

/*
 * The committed record of a repository's rebuild (`repocod record`): a line per task and a header with
 * the environment and the counts behind them. Everything here is pure: the same catalog content gives
 * the same bytes, so that a change that moves a task shows in review as a diff of these files.
 */

/** The stages whose wall time the header reports, in flow order. */
export const RECORDED_STAGES = ['prepare', 'extract', 'mine', 'tasks', 'validate'] as const;

/**
 * One task, a line of `<repository>.jsonl`. Key order is the order of the fields below; a fresh record's line ends
 * with its body's date (BodyDateFields), which a record made without a cutoff has not.
 */
export interface RecordLine extends TaskFacts, Partial<BodyDateFields> {
  /** Sorted. */
  readonly fail_to_pass: readonly string[];
  /** Whether the record's selection picked it; null when there is no selection. */
  readonly selected: boolean | null;
  /**
   * The task's latest validation of its current content, whichever selection it was validated in (a
   * pick that failed and was replaced keeps its verdict): true passed, false failed; null when it has
   * none (never validated, or not judged because of an infrastructure error).
   */
  readonly valid: boolean | null;
}

/** `<repository>.meta.json`. Null where the catalog (or the environment's marker) does not say. */
export interface RecordMeta {
  readonly repository: string;
  readonly base_commit: string | null;
  readonly base_commit_timestamp: string | null;
  /**
   * The manifest's base commit (REPOCOD's) when the tasks were built on another tree: a stand-in such
   * as a release's source distribution where the repository cannot be cloned (scikit-learn here).
   * Null when `base_commit` is the manifest's, or the repository is not in a manifest.
   */
  readonly stands_in_for: string | null;
  /** The package version of the tool that wrote the record (no commit: see toolPackageVersion). */
  readonly tool_version: string;
  /** The tool version stored with the latest of the verdicts counted under `validated`. */
  readonly validated_with: string | null;
  /**
   * What wrote the record: the tool with its git commit, and the digest of the repository's committed
   * checkpoint (checkpointDigest) the catalog's costly rows came from; null when not given.
   */
  readonly made_with: { readonly tool: string; readonly checkpoint: string | null } | null;
  /** The selection that gives each line's `selected`. */
  readonly selection: string | null;
  readonly environment: {
    readonly key: string | null;
    readonly installer: string | null;
    /** The UTC timestamp versions were resolved as of (uv --exclude-newer); null when undated or unknown. */
    readonly resolved_as_of: string | null;
    /** Seconds the environment took to build. */
    readonly build_seconds: number | null;
    readonly python_version: string | null;
    readonly packages_hash: string | null;
    /** `name==version`, sorted; null when the environment is not on this machine. */
    readonly packages: readonly string[] | null;
  };
  /** The baseline of the mining behind the tasks; null when nothing was mined. */
  readonly baseline: {
    /** How many times the suite ran (k): the manifest's baseline_runs, else the command's --repeat. */
    readonly runs: number;
    readonly tests: number;
    readonly passing: number;
    readonly flaky: number;
    readonly not_passing: number;
    /**
     * Of the not passing, those that fail for want of a network (the runner's tests have none): node ids,
     * sorted. They never enter a FAIL_TO_PASS; listed so a curator sees what the isolation cost.
     */
    readonly network_bound: readonly string[];
  } | null;
  readonly candidates: number;
  readonly mined: { readonly with_tests: number; readonly without_tests: number; readonly errors: number };
  readonly tasks: {
    readonly total: number;
    /** The mode `by_level` (and each line's `level`) is under; null when the repository has no tasks. */
    readonly level_mode: LevelMode | null;
    readonly by_level: Readonly<Record<string, number>>;
    /** The tasks per level under every mode (a task without a label under a mode is not counted there). */
    readonly by_level_mode: Readonly<Record<LevelMode, Readonly<Record<string, number>>>>;
    readonly passing_checks: number;
  };
  /** Tasks whose latest validation of their current content passed or failed (any selection's). */
  readonly validated: { readonly passed: number; readonly failed: number };
  /** Wall seconds (one decimal) of each stage as it last finished in `repocod curate`; null when never recorded. */
  readonly stage_seconds: Readonly<Record<(typeof RECORDED_STAGES)[number], number | null>>;
  /**
   * The runner's machine time for the repository: every pytest job the catalog holds for it (baseline
   * shards, mutation runs, collect checks, validations), summed over workers and sessions, in whole
   * seconds. Unlike stage_seconds it survives a rebuild resumed over several sessions.
   */
  readonly runner: { readonly jobs: number; readonly seconds: number };
  /** Only in a fresh record (made with a `--changed-since` cutoff): the cutoff and the counts under it. */
  readonly freshness?: RecordFreshness;
}

export interface RebuildRecord {
  readonly lines: readonly RecordLine[];
  readonly meta: RecordMeta;
}

/** What the record is made of, as read from the catalog and the environment's marker. */
export interface RebuildRecordInputs {
  readonly repository: string;
  readonly toolVersion: string;
  /** The manifest's base commit for the repository; null when no manifest names it or it has none. */
  readonly manifestBaseCommit: string | null;
  readonly tasks: readonly StoredTask[];
  /** The selection and the instance ids it picked; null when the catalog has none. */
  readonly selection: { readonly selectionId: string; readonly instanceIds: ReadonlySet<string> } | null;
  /** The repository's validations. */
  readonly validations: readonly StoredValidation[];
  readonly environmentKey: string | null;
  /** The marker of that environment, when it is on this machine. */
  readonly marker: EnvironmentMarker | null;
  readonly candidates: number;
  /** The mining behind the tasks (see miningBehindTasks), its baseline and its per-function results. */
  readonly baseline: readonly MiningBaselineRow[] | null;
  readonly mined: readonly StoredRelevantTests[];
  readonly stageTimes: readonly StageTime[];
  /** The duration of each of the repository's runner jobs in the catalog, seconds. */
  readonly runSeconds: readonly number[];
  readonly madeWith?: MadeWith;
  /** The cutoff the tasks were built under and the body dates: a fresh record. */
  readonly freshness?: FreshnessInputs;
}

/** The tool (with its commit: toolVersion) and the checkpoint digest per repository a record is written with. */
export interface MadeWith {
  readonly tool: string;
  readonly checkpoints: ReadonlyMap<string, string | null>;
}

export function buildRebuildRecord(inputs: RebuildRecordInputs): RebuildRecord {
  // Verdicts and picks are found by the catalog's names; the record names tasks as a release does (released-task.ts).
  const verdicts = new Map(
    [...currentVerdicts(inputs.tasks, inputs.validations)].map(([id, verdict]) => [releaseInstanceId(id), verdict]),
  );
  const selected = inputs.selection === null ? null : new Set([...inputs.selection.instanceIds].map(releaseInstanceId));
  const tasks = inputs.tasks.map(releasedTask).sort((a, b) => compare(a.instanceId, b.instanceId));
  const repository = projectName(inputs.repository);
  const freshness = inputs.freshness === undefined ? null : recordFreshness(repository, tasks, inputs.freshness);
  const lines = taskFactsOf(tasks).map(
    ({ task, facts }): RecordLine => ({
      ...facts,
      fail_to_pass: [...task.failToPass].sort(compare),
      selected: selected === null ? null : selected.has(task.instanceId),
      valid: verdictValue(verdicts.get(task.instanceId)),
      ...freshness?.byInstance.get(task.instanceId),
    }),
  );
  const meta = recordMeta(inputs, tasks, verdicts);
  return { lines, meta: freshness === null ? meta : { ...meta, freshness: freshness.meta } };
}

/** One JSON object per line, in instance id order; an empty file for a repository without tasks. */
export function formatRecordLines(lines: readonly RecordLine[]): string {
  return lines.map((line) => `${JSON.stringify(line)}\n`).join('');
}

export function formatRecordMeta(meta: RecordMeta): string {
  return `${JSON.stringify(meta, null, 2)}\n`;
}

/**
 * The mining behind the tasks: of the repository's minings (a mining key and a mode), the one whose
 * functions with relevant tests hold most of the tasks' functions, then the one that mined the most
 * functions, then the most recent. A later partial run (`mine --exact --only f` to check one answer)
 * is then not taken for the mining the tasks came from. Null when nothing was mined.
 */
export function miningBehindTasks(
  rows: readonly StoredRelevantTests[],
  taskFunctionIds: ReadonlySet<string>,
): MiningChoice | null {
  const groups = new Map<string, { choice: MiningChoice; covered: number; mined: number; latest: number }>();
  for (const row of rows) {
    const id = `${row.miningKey}\n${row.mode}`;
    const group = groups.get(id) ?? {
      choice: { miningKey: row.miningKey, mode: row.mode },
      covered: 0,
      mined: 0,
      latest: 0,
    };
    group.mined++;
    if (row.status === 'tests' && taskFunctionIds.has(row.functionId)) group.covered++;
    group.latest = Math.max(group.latest, row.minedAt.getTime());
    groups.set(id, group);
  }
  const [best] = [...groups.values()].sort(
    (a, b) =>
      b.covered - a.covered ||
      b.mined - a.mined ||
      b.latest - a.latest ||
      compare(b.choice.miningKey, a.choice.miningKey) ||
      compare(b.choice.mode, a.choice.mode),
  );
  return best === undefined ? null : best.choice;
}

export interface MiningChoice {
  readonly miningKey: string;
  readonly mode: string;
}

/**
 * Each task's latest validation of its current content, in whichever selection it was made. A
 * validation of an earlier build of the task (another task hash) says nothing about the task as it is now.
 */
export function currentVerdicts(
  tasks: readonly StoredTask[],
  validations: readonly StoredValidation[],
): Map<string, StoredValidation> {
  return currentValidations(validations, new Map(tasks.map((task) => [task.instanceId, taskHash(task)])));
}

export function verdictValue(verdict: StoredValidation | undefined): boolean | null {
  if (verdict === undefined || verdict.status === 'infra-error') return null;
  return verdict.status === 'passed';
}

function recordMeta(
  inputs: RebuildRecordInputs,
  tasks: readonly StoredTask[],
  verdicts: ReadonlyMap<string, StoredValidation>,
): RecordMeta {
  const first = tasks[0];
  const judged = [...verdicts.values()].filter((row) => row.status !== 'infra-error');
  const newest = newestFirst(judged)[0];
  const byLevel: Record<string, number> = {};
  for (const level of CONTEXT_LEVELS) byLevel[level] = tasks.filter((task) => task.level === level).length;
  const seconds = new Map(inputs.stageTimes.map((time) => [time.stage, Math.round(time.seconds * 10) / 10]));
  return {
    repository: projectName(inputs.repository),
    base_commit: first?.baseCommit ?? null,
    base_commit_timestamp: first?.baseCommitTimestamp ?? null,
    stands_in_for: standsInFor(first?.baseCommit ?? null, inputs.manifestBaseCommit),
    tool_version: inputs.toolVersion,
    validated_with: newest?.toolVersion ?? null,
    made_with:
      inputs.madeWith === undefined
        ? null
        : { tool: inputs.madeWith.tool, checkpoint: inputs.madeWith.checkpoints.get(inputs.repository) ?? null },
    selection: inputs.selection?.selectionId ?? null,
    environment: recordEnvironment(inputs),
    baseline:
      inputs.baseline === null
        ? null
        : {
            runs: Math.max(0, ...inputs.baseline.map((row) => row.outcomes.length)),
            tests: inputs.baseline.length,
            passing: inputs.baseline.filter((row) => row.status === 'passing').length,
            flaky: inputs.baseline.filter((row) => row.status === 'flaky').length,
            not_passing: inputs.baseline.filter((row) => row.status === 'not-passing').length,
            network_bound: networkBound(inputs.baseline)
              .map((row) => row.nodeId)
              .sort(),
          },
    candidates: inputs.candidates,
    mined: {
      with_tests: inputs.mined.filter((row) => row.status === 'tests').length,
      without_tests: inputs.mined.filter((row) => row.status === 'no-tests').length,
      errors: inputs.mined.filter((row) => row.status === 'error').length,
    },
    tasks: {
      total: tasks.length,
      level_mode: first?.levelMode ?? null,
      by_level: byLevel,
      by_level_mode: Object.fromEntries(
        LEVEL_MODES.map((mode) => [
          mode,
          Object.fromEntries(
            CONTEXT_LEVELS.map((level) => [level, tasks.filter((task) => task.levels[mode]?.level === level).length]),
          ),
        ]),
      ) as Record<LevelMode, Record<string, number>>,
      passing_checks: tasks.filter((task) => task.checksPassed).length,
    },
    validated: {
      passed: judged.filter((row) => row.status === 'passed').length,
      failed: judged.filter((row) => row.status === 'failed').length,
    },
    stage_seconds: {
      prepare: seconds.get('prepare') ?? null,
      extract: seconds.get('extract') ?? null,
      mine: seconds.get('mine') ?? null,
      tasks: seconds.get('tasks') ?? null,
      validate: seconds.get('validate') ?? null,
    },
    runner: {
      jobs: inputs.runSeconds.length,
      seconds: Math.round(inputs.runSeconds.reduce((sum, run) => sum + run, 0)),
    },
  };
}

/** The manifest's commit when the tasks' base commit is another one (see RecordMeta.stands_in_for). */
function standsInFor(baseCommit: string | null, manifestBaseCommit: string | null): string | null {
  if (baseCommit === null || manifestBaseCommit === null) return null;
  return baseCommit === manifestBaseCommit ? null : manifestBaseCommit;
}

/**
 * The environment from its marker; without the marker (built on another machine, or removed), the
 * Python version and packages hash that the validations stored for that same environment.
 */
function recordEnvironment(inputs: RebuildRecordInputs): RecordMeta['environment'] {
  const marker = inputs.marker !== null && inputs.marker.key === inputs.environmentKey ? inputs.marker : null;
  if (marker !== null) {
    return {
      key: marker.key,
      installer: marker.installer,
      resolved_as_of: marker.resolvedAsOf ?? null,
      build_seconds: marker.buildSeconds,
      python_version: marker.pythonVersion,
      packages_hash: marker.packagesHash,
      packages: [...marker.packages].sort(compare),
    };
  }
  const validated = newestFirst(inputs.validations.filter((row) => row.environmentKey === inputs.environmentKey))[0];
  return {
    key: inputs.environmentKey,
    installer: null,
    resolved_as_of: null,
    build_seconds: null,
    python_version: validated?.pythonVersion ?? null,
    packages_hash: validated?.packagesHash ?? null,
    packages: null,
  };
}

/** Latest validation first; ties broken by task, then validation key, so that the pick never depends on input order. */
function newestFirst(rows: readonly StoredValidation[]): StoredValidation[] {
  return [...rows].sort(
    (a, b) =>
      b.validatedAt.getTime() - a.validatedAt.getTime() ||
      compare(a.instanceId, b.instanceId) ||
      compare(a.validationKey, b.validationKey),
  );
}

/** Code-point order, the same in every locale. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
