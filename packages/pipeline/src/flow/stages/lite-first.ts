import type { LiteMiningOptions, LiteMiningSummary } from '../../lite/lite-mining.js';
import { liteMining } from '../../lite/lite-mining.js';
import type { MineSummary } from '../../steps/mine.js';
import { mineStep } from '../../steps/mine.js';
import { mineProgress } from './mine-progress.js';
import type { SpanningStage, StageContext, StageRow } from '../stage-contract.js';
import { FlowAborted } from '../stage-contract.js';
import { buildTasks } from './tasks.js';

/**
 * Lite-first mining over every extracted repository, then their tasks; again while the tasks' checks
 * leave a level short of its quota plus margin (the next pass then mines the next candidates). Each
 * repository's `mine` row runs from its first round to the end of the pass. A repository whose mining
 * or tasks fail leaves the flow.
 */
export const LITE_FIRST: SpanningStage = {
  stage: 'mine',
  scope: 'spanning',
  async run(context) {
    const { state } = context;
    const failed = new Set<string>();
    for (let pass = 1; ; pass++) {
      const repositories = [...state.extracted].filter((repository) => !failed.has(repository));
      if (repositories.length === 0) break;
      const minedNow = await minePass(context, repositories, pass, failed);
      // The tasks of the repositories mined in this pass (of all of them in the first): their checks may
      // send the planner further.
      const toBuild = repositories.filter(
        (repository) => !failed.has(repository) && (pass === 1 || (minedNow.get(repository) ?? 0) > 0),
      );
      for (const repository of toBuild) {
        const built = await context.rows.run('tasks', repository, (progress) =>
          buildTasks(context, repository, progress),
        );
        if (built === undefined) failed.add(repository);
      }
      const left = repositories.filter((repository) => !failed.has(repository));
      if (toBuild.length === 0 || !(await needsMore(context, left))) break;
    }
    const left = state.active.filter((repository) => !failed.has(repository));
    state.active.splice(0, state.active.length, ...left);
  },
};

interface MineRow {
  readonly at: number;
  readonly row: StageRow;
  minedNow: number;
}

/** One pass of rounds; returns how many candidates each repository mined in it. */
async function minePass(
  context: StageContext,
  repositories: readonly string[],
  pass: number,
  failed: Set<string>,
): Promise<Map<string, number>> {
  const { catalog, repositories: prepared, settings, rows } = context;
  const started = new Map<string, MineRow>();
  const begin = (repository: string): MineRow => {
    const known = started.get(repository);
    if (known !== undefined) return known;
    const row = { at: performance.now(), row: rows.open('mine', repository), minedNow: 0 };
    started.set(repository, row);
    return row;
  };
  const fail = (repository: string, error: unknown): void => {
    if (error instanceof FlowAborted || rows.aborted()) throw new FlowAborted();
    const row = begin(repository);
    failed.add(repository);
    rows.failed('mine', repository, row.row, error, (performance.now() - row.at) / 1000);
  };
  if (pass === 1) for (const repository of repositories) begin(repository);
  let summary: LiteMiningSummary;
  try {
    summary = await liteMining(catalog, prepared, {
      ...liteOptions(context, repositories),
      // One repository that cannot be ranked (a blame that fails, a clone without a commit) leaves the flow alone.
      onRankingError: fail,
      mineRound: async (request): Promise<MineSummary | null> => {
        if (rows.aborted()) throw new FlowAborted();
        const row = begin(request.repository);
        row.row.step(0, request.functions, `round ${request.round}: ${request.functions} function(s)`);
        try {
          const value = await mineStep(catalog, request.prepared, {
            projectRoot: settings.projectRoot,
            executor: settings.executor,
            candidates: settings.candidates,
            changedSince: settings.changedSince,
            datedAgainst: settings.datedAgainst,
            repeat: settings.repeat,
            mode: 'fast',
            ...request.mineOptions,
            onEvent: mineProgress(row.row),
          });
          row.minedNow += request.functions;
          context.state.miningKeys.set(request.repository, value.miningKey);
          return value;
        } catch (error) {
          fail(request.repository, error);
          return null;
        }
      },
    });
  } catch (error) {
    // Before any round and not one repository's (a spec Lite-first cannot use): every repository's mining failed.
    for (const repository of repositories) if (!failed.has(repository)) fail(repository, error);
    return new Map();
  }
  const levels = summary.plan.levels.map((level) => `${level.level} ${level.found}/${level.target}`).join(', ');
  const closing = summary.repositories.filter(
    ({ repository }) => !failed.has(repository) && (pass === 1 || started.has(repository)),
  );
  for (const [index, repository] of closing.entries()) {
    const row = begin(repository.repository);
    // Levels short of candidates concern every repository: said once, on the first row.
    for (const level of index === 0 ? summary.plan.levels : []) {
      if (level.state === 'exhausted')
        row.row.problem(
          `${level.level}: every candidate mined, ${level.found} task(s) for a target of ${level.target} ` +
            `(quota ${level.quota})`,
        );
    }
    const text =
      `Lite-first: ${repository.mined} of ${repository.ranked} candidates mined (${row.minedNow} now), ` +
      `${repository.withTests} with relevant tests; over all: ${summary.mined} of ${summary.candidates} ` +
      `in ${summary.rounds} round(s), found/target ${levels}`;
    await rows.done('mine', repository.repository, row.row, text, (performance.now() - row.at) / 1000);
  }
  return new Map([...started].map(([repository, row]) => [repository, row.minedNow]));
}

/** Whether the planner, now that the tasks' checks are known, wants more candidates mined. */
async function needsMore(context: StageContext, repositories: readonly string[]): Promise<boolean> {
  if (repositories.length === 0) return false;
  const probe = await liteMining(context.catalog, context.repositories, {
    ...liteOptions(context, repositories),
    retryErrors: false,
    mineRound: async () => null,
  });
  return probe.rounds > 0;
}

/** Lite-first mining's options in this flow, all but how a round is mined. */
function liteOptions({ settings }: StageContext, repositories: readonly string[]): LiteMiningOptions {
  return {
    projectRoot: settings.projectRoot,
    executor: settings.executor,
    candidates: settings.candidates,
    changedSince: settings.changedSince,
    datedAgainst: settings.datedAgainst,
    repositories,
    spec: settings.spec,
    margin: settings.margin,
    mode: 'fast',
    repeat: settings.repeat,
  };
}
