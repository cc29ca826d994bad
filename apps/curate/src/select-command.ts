import { LEVEL_MODES, RepocodError } from '@repocod/core';
import type { ReferenceTasks, SelectSummary } from '@repocod/pipeline';
import {
  DEFAULT_CATALOG_PATH,
  listRepositories,
  openCatalog,
  qualityRemovalLines,
  qualityRulesInForce,
  referenceTaskIds,
  selectStep,
} from '@repocod/pipeline';
import type { CommandIO } from './io.js';
import type { ParsedArgs } from './parse-args.js';
import { stringOption } from './parse-args.js';
import { PROJECT_ROOT } from './project-root.js';
import { repositoryOptions } from './repository-options.js';
import { selectionSpecOption } from './spec-option.js';

export const SELECT_USAGE = `usage: repocod select [--spec FILE] [--levels MODE] [--reference NAME [--keep-all]]
                      [--explain] [--manifest FILE] [--db FILE]

Chooses the Lite subset over every repository's checked tasks, in DuckDB: per context level, the
tasks ranked by the spec's score (default lines(prompt) × lines(solution)), ties broken by solution
tokens then instance id, the first quota of each (default 66 self-contained, 67 file-level, 67
repo-level). --spec FILE is JSON: {"quotas": {...}, "score": "<SQL>", "filter": "<SQL>"}. A task
whose validation failed is passed over for the next of its level, when the level has enough others
(validate the new selection, then select again until nothing fails; curate does this itself). The
selection is stored with its spec. --explain prints each pick's rank and score and the cut-off per
level. --levels MODE chooses the labelling the quotas are over (${LEVEL_MODES.join(', ')}; or "levels"
in the spec; default the mode the tasks were built with): the tasks are re-labelled from the catalog,
nothing is mined or classified again. --reference NAME (repocod reference) takes the pool from the
tasks of the functions its rows resolve to (mine and tasks --reference make them), the spec's quotas over
it; --keep-all keeps every one of them, failed validations included (rebuilding a published list: each
task with its verdict), the quotas stored being the pool's counts. The reference's rows without a task are
named.`;

export async function selectCommand(args: ParsedArgs, io: CommandIO): Promise<number> {
  if (args.positionals.length > 0) throw new RepocodError('usage', SELECT_USAGE);
  const specFile = stringOption(args, 'spec');
  const reference = stringOption(args, 'reference');
  const keepAll = args.flags.get('keep-all') === true;
  if (keepAll && reference === undefined) throw new RepocodError('usage', '--keep-all goes with --reference NAME');
  const given = selectionSpecOption(args);
  const spec = {
    ...given,
    ...(reference === undefined ? {} : { reference }),
    ...(keepAll ? { keepAll } : {}),
  };
  const catalog = await openCatalog(stringOption(args, 'db') ?? DEFAULT_CATALOG_PATH);
  try {
    const pool =
      spec.reference === undefined
        ? undefined
        : await referenceTaskIds(catalog, spec.reference, {
            repositories: listRepositories(repositoryOptions(args)),
            projectRoot: PROJECT_ROOT,
          });
    if (pool !== undefined) io.out(formatReferencePool(pool));
    const summary = await selectStep(catalog, spec, specFile ?? 'the default spec', {
      ...(pool === undefined ? {} : { referenceTasks: pool.instanceIds }),
    });
    io.out(formatSelection(summary, args.flags.get('explain') === true));
    return 0;
  } finally {
    await catalog.close();
  }
}

/** `reference three: 3 row(s), 3 resolve, 2 with a task; without one: #3 f (not mined, or no relevant tests)`. */
export function formatReferencePool(pool: ReferenceTasks): string {
  const without = pool.withoutTask.map(({ row }) => `#${row.index} ${row.functionName ?? row.instanceId ?? '?'}`);
  const tasks = pool.instanceIds.length;
  return (
    `reference ${pool.reference}: ${pool.rows} row(s), ${pool.resolved} resolve, ${tasks} with a task in the ` +
    `catalog${
      without.length > 0
        ? `; without one (not mined with --reference, or no relevant tests): ${without.slice(0, 8).join(', ')}${
            without.length > 8 ? ', …' : ''
          }`
        : ''
    }\n`
  );
}

export function formatSelection(summary: SelectSummary, explain: boolean): string {
  const { spec } = summary;
  const pool =
    spec.reference === undefined ? '' : `; reference ${spec.reference}${spec.keepAll === true ? ', all kept' : ''}`;
  const lines = [
    `selection ${summary.selectionId}: ${summary.picks.length} tasks; score ${spec.score}; filter ${spec.filter}; ` +
      `levels ${spec.levels}${pool}`,
  ];
  for (const level of summary.levels) {
    const cut =
      level.cutoff === null
        ? 'none picked'
        : `cut-off score ${level.cutoff}${level.firstLeftOut === null ? '' : ` (best left out ${level.firstLeftOut})`}`;
    lines.push(`  ${level.level.padEnd(15)} ${level.picked}/${level.quota} picked of ${level.available}; ${cut}`);
  }
  for (const level of summary.short)
    lines.push(
      `  note: ${level.level} has ${level.available} tasks, fewer than its quota of ${level.quota}: all of them were ` +
        `taken`,
    );
  if (summary.passedOver.length > 0)
    lines.push(
      `  passed over: ${summary.passedOver.length} task(s) whose validation failed (repocod show ID says why)`,
    );
  if (spec.quality !== undefined) lines.push(`  quality rules: ${qualityRulesInForce(spec.quality)}`);
  for (const line of qualityRemovalLines(summary.qualityRemoved)) lines.push(`    ${line}`);
  if (explain) {
    for (const removal of summary.qualityRemoved) {
      const why = removal.findings.map((finding) => `${finding.rule}: ${finding.detail}`).join('; ');
      lines.push(`    removed by a quality rule: ${removal.instanceId} (${why})`);
    }
    for (const instanceId of summary.passedOver) lines.push(`    passed over (validation failed): ${instanceId}`);
    lines.push('  picks (level, rank, score, solution tokens, instance id):');
    for (const pick of summary.picks)
      lines.push(
        `    ${pick.level.padEnd(15)} ${String(pick.rank).padStart(4)} ${String(pick.score).padStart(8)} ` +
          `${String(pick.solutionTokens).padStart(6)}  ${pick.instanceId}`,
      );
  }
  return `${lines.join('\n')}\n`;
}
