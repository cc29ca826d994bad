import type { Catalog } from '@repocod/catalog';
import type { CandidateModeName } from '@repocod/core';
import { DEFAULT_RELEASE_VERSION, RepocodError, resolveRepeat, resolveWorkers } from '@repocod/core';
import type { ExecutorFactory } from '@repocod/runner';
import { localExecutor } from '@repocod/runner';
import type { SelectionSpec } from '@repocod/tasks';
import { REPOCOD_LITE_SPEC } from '@repocod/tasks';
import type { FlowEvent, FlowStage } from './flow-events.js';
import type {
  FlowSettings,
  FlowState,
  RepositoryStage,
  Stage,
  StageContext,
  StageDefinition,
} from './stage-contract.js';
import { FLOW_STAGE_LIST, flowStages, stageNames } from './stage-list.js';
import { FlowAborted } from './stage-contract.js';
import { FlowRows } from './stage-rows.js';
import { CostLedger } from '../jobs/cost-ledger.js';
import type { BuildCost } from '../jobs/cost-table.js';
import type { ReleaseDatings } from '../candidates/dated-against.js';
import { checkDatedRepositories } from '../candidates/dated-against.js';
import type { LiteMargin } from '../lite/lite-plan.js';
import { PreparedRepositories } from '../steps/prepare.js';
import type { HubTarget } from '../steps/publish.js';

export { FlowAborted } from './stage-contract.js';

export interface FlowOptions {
  readonly projectRoot: string;
  readonly stateRoot?: string;
  /** The repositories to curate (manifest names). */
  readonly repositories: readonly string[];
  readonly manifest?: string;
  readonly sources?: readonly string[];
  /** `--at NAME=REF` options: repositories built at another commit than the manifest's (repository-at.ts). */
  readonly ats?: readonly string[];
  readonly workers?: number;
  /** Where the runner's jobs run (default: the local pool); see @repocod/distributed for a queue. */
  readonly executor?: ExecutorFactory;
  /**
   * Baseline runs when mining (default 3), and runs with the gold patches when validating (default: the
   * manifest's validate_runs of each repository, else 3).
   */
  readonly repeat?: number;
  /**
   * The selection spec (default REPOCOD-Lite's). A spec over a reference (`reference`, `keepAll`: see
   * repocod reference) makes the flow a rebuild of it: mine and tasks take exactly the functions its rows
   * resolve to, every one mined, select pools their tasks, and the release says what became of each row.
   */
  readonly spec?: SelectionSpec;
  /**
   * Mine every candidate of every repository. By default the flow mines Lite-first (see lite-mining.ts):
   * only the candidates the selection can pick, with the same picks as mining them all.
   */
  readonly mineAll?: boolean;
  /** Which candidates mine and tasks take (see CANDIDATE_MODES); default `docstring`. */
  readonly candidates?: CandidateModeName;
  /** Only the candidates whose body was written or changed after this cutoff (UTC, from parseChangedSince). */
  readonly changedSince?: string;
  /**
   * The repositories without history whose bodies are dated by release diff (`--dated-against`, read by
   * candidates/dated-against.ts's releaseDatings): each must be one of `repositories`.
   */
  readonly datedAgainst?: ReleaseDatings;
  /** Lite-first mining's margin over each quota (default 20%). */
  readonly margin?: LiteMargin;
  readonly narrow?: boolean;
  /** The version the flow releases (default DEFAULT_RELEASE_VERSION). */
  readonly version?: string;
  /** The release folder. */
  readonly out: string;
  readonly keep?: readonly string[];
  readonly push?: HubTarget;
  /**
   * The stages to run (default all). The TUI runs every stage but publish, then publish alone once the
   * curator has confirmed; a stage left out is taken as it stands in the catalog (select: the latest
   * selection).
   */
  readonly stages?: readonly FlowStage[];
  /** The flow's stages, in order (default FLOW_STAGE_LIST): a new stage is one more entry. */
  readonly stageList?: readonly StageDefinition[];
  readonly onEvent?: (event: FlowEvent) => void;
  /** Checked between items: an aborted flow stops at the next boundary, keeping what is stored. */
  readonly signal?: AbortSignal;
  /** How often a running stage reports where it stands (default DEFAULT_PROGRESS_INTERVAL_MS). */
  readonly progressIntervalMs?: number;
}

export interface FlowResult {
  readonly ok: boolean;
  /** Stages that failed, with the repository and what to do. */
  readonly failures: readonly {
    readonly stage: FlowStage;
    readonly repository: string | null;
    readonly message: string;
  }[];
  readonly release: {
    readonly folder: string;
    readonly version: string;
    readonly rows: number;
    readonly written: boolean;
  } | null;
  readonly durationSeconds: number;
  /** What the run cost: the jobs it ran (not those the catalog answered), per repository and phase. */
  readonly cost: BuildCost;
}

/** The flow's settings with their defaults, resolved here once. */
export function flowSettings(options: FlowOptions): FlowSettings {
  const spec = options.spec ?? REPOCOD_LITE_SPEC;
  return {
    workers: resolveWorkers(options.workers),
    repeat: resolveRepeat(options.repeat),
    validateRepeat: options.repeat,
    spec,
    // A reference names its functions: every one is mined, so Lite-first planning does not apply.
    mineAll: options.mineAll === true || spec.reference !== undefined,
    margin: options.margin,
    narrow: options.narrow,
    version: options.version ?? DEFAULT_RELEASE_VERSION,
    out: options.out,
    keep: options.keep,
    push: options.push,
    projectRoot: options.projectRoot,
    stateRoot: options.stateRoot,
    manifest: options.manifest,
    sources: options.sources,
    ats: options.ats,
    executor: options.executor,
    candidates: options.candidates,
    changedSince: options.changedSince,
    datedAgainst: checkDatedRepositories(options.datedAgainst, options.repositories),
  };
}

/**
 * The whole curation on the catalog, stage by stage, for the TUI and the headless mode alike (see
 * flowStages). Every stage stores its work as it goes and answers what is already stored, so running
 * the flow again carries on where it stopped. The per-repository stages run repository by repository;
 * a repository whose stage fails is reported and leaves the flow, and the others go on. The stages
 * over all repositories need every repository to have got that far.
 */
export async function runFlow(catalog: Catalog, options: FlowOptions): Promise<FlowResult> {
  const started = performance.now();
  // Kept in the catalog as each job ends, so that the cost of a build resumed over sessions can be read whole
  // (`repocod cost`); the flow's own summary counts only this run's jobs.
  const ledger = new CostLedger((cost) => catalog.addJobCost(cost));
  const emit = (event: FlowEvent): void => {
    // Each job is counted under the stage that runs it.
    if (event.kind === 'stage-start') ledger.stage = event.stage;
    options.onEvent?.(event);
  };
  // Every stage's jobs go through the ledger: the flow's cost, counted where the jobs run.
  const settings = { ...flowSettings(options), executor: ledger.wrap(options.executor ?? localExecutor) };
  const list = options.stageList ?? FLOW_STAGE_LIST;
  const names = stageNames(list);
  const chosen = new Set(options.stages ?? names);
  checkNeeds(list, chosen);
  const repositories = new PreparedRepositories({
    projectRoot: settings.projectRoot,
    stateRoot: settings.stateRoot,
    manifest: settings.manifest,
    sources: settings.sources,
    ats: settings.ats,
    workers: settings.workers,
  });
  // A row is named by the manifest; its stage time is kept under the catalog name of the era it built.
  const rows = new FlowRows(catalog, emit, options.signal, options.progressIntervalMs, (repository) =>
    repositories.catalogNameOf(repository),
  );
  const state: FlowState = {
    active: [...options.repositories],
    extracted: new Set(),
    miningKeys: new Map(),
    selectionId: undefined,
    release: null,
  };
  const context: StageContext = {
    catalog,
    settings,
    repositories,
    state,
    rows,
  };
  const finish = async (ok: boolean): Promise<FlowResult> => {
    const cost = await buildCost(catalog, ledger, state.miningKeys, (repository) =>
      repositories.catalogNameOf(repository),
    );
    const result = {
      ok: ok && rows.failures.length === 0,
      failures: rows.failures,
      release: state.release,
      durationSeconds: (performance.now() - started) / 1000,
      cost,
    };
    emit({
      kind: 'flow-done',
      ok: result.ok,
      failures: rows.failures.length,
      release: state.release,
      seconds: result.durationSeconds,
      cost,
    });
    return result;
  };

  emit({
    kind: 'flow-start',
    repositories: [...options.repositories],
    stages: names.filter((name) => chosen.has(name)),
  });
  try {
    for (const group of stageGroups(flowStages(settings, list))) {
      if (group.kind === 'per-repository') {
        await runPerRepository(context, group.stages, chosen);
        continue;
      }
      const { stage } = group;
      if (stage.scope === 'spanning') {
        if (chosen.has(stage.stage)) await stage.run(context);
        continue;
      }
      // The stages over all repositories need every one of them.
      if (state.active.length < options.repositories.length) return await finish(false);
      if (rows.aborted()) throw new FlowAborted();
      if (!chosen.has(stage.stage)) continue;
      const done = await rows.run(stage.stage, null, async (progress) => ({
        summary: await stage.run(context, progress),
        value: true,
      }));
      if (done === undefined) return await finish(false);
    }
    return await finish(state.active.length === options.repositories.length);
  } catch (error) {
    if (error instanceof FlowAborted) emit({ kind: 'flow-stopped', seconds: (performance.now() - started) / 1000 });
    throw error;
  }
}

/** The ledger's phases, with the suite size of each repository that has a baseline under its mining key. */
async function buildCost(
  catalog: Pick<Catalog, 'miningBaseline'>,
  ledger: CostLedger,
  miningKeys: ReadonlyMap<string, string>,
  catalogNameOf: (repository: string) => string,
): Promise<BuildCost> {
  const suiteTests: Record<string, number> = {};
  for (const [repository, key] of miningKeys) {
    const name = catalogNameOf(repository);
    const baseline = await catalog.miningBaseline(name, key);
    if (baseline !== null) suiteTests[name] = baseline.length;
  }
  return { phases: ledger.rows(), suiteTests };
}

/** A chosen stage whose needs are not chosen is a usage error: `extract` works on the checkout `prepare` makes. */
function checkNeeds(list: readonly StageDefinition[], chosen: ReadonlySet<FlowStage>): void {
  for (const needed of new Set(list.flatMap((definition) => definition.needs ?? []))) {
    const dependants = list.filter((definition) => definition.needs?.includes(needed)).map(({ stage }) => stage);
    if (!chosen.has(needed) && dependants.some((stage) => chosen.has(stage))) {
      const named =
        dependants.length === 1 ? dependants[0] : `${dependants.slice(0, -1).join(', ')} and ${dependants.at(-1)}`;
      throw new RepocodError('usage', `the flow runs ${named} only with ${needed}`);
    }
  }
}

type StageGroup =
  | { readonly kind: 'per-repository'; readonly stages: RepositoryStage[] }
  | { readonly kind: 'one'; readonly stage: Exclude<Stage, RepositoryStage> };

/** Consecutive per-repository stages together (they run repository by repository), the others alone. */
function stageGroups(stages: readonly Stage[]): StageGroup[] {
  const groups: StageGroup[] = [];
  for (const stage of stages) {
    const last = groups.at(-1);
    if (stage.scope !== 'repository') groups.push({ kind: 'one', stage });
    else if (last?.kind === 'per-repository') last.stages.push(stage);
    else groups.push({ kind: 'per-repository', stages: [stage] });
  }
  return groups;
}

/** Each repository through the stages in turn; a failure takes the repository out of the flow. */
async function runPerRepository(
  context: StageContext,
  stages: readonly RepositoryStage[],
  chosen: ReadonlySet<FlowStage>,
): Promise<void> {
  const { state, rows } = context;
  for (const repository of [...state.active]) {
    for (const stage of stages) {
      if (rows.aborted()) throw new FlowAborted();
      if (!chosen.has(stage.stage)) continue;
      const done = await rows.run(stage.stage, repository, async (progress) => ({
        summary: await stage.run(context, repository, progress),
        value: true,
      }));
      if (done === undefined) {
        state.active.splice(state.active.indexOf(repository), 1);
        break;
      }
    }
  }
}
