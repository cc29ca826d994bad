import { LEVEL_MODES, RepocodError } from '@repocod/core';
import type { SelectSummary } from '@repocod/pipeline';
import { DEFAULT_CATALOG_PATH, openCatalog, selectStage } from '@repocod/pipeline';
import type { CommandIO } from './io.js';
import type { ParsedArgs } from './parse-args.js';
import { stringOption } from './parse-args.js';
import { selectionSpecOption } from './spec-option.js';

export const SELECT_USAGE = `usage: repocod select [--spec FILE] [--levels MODE] [--explain] [--db FILE]

Chooses the Lite subset over every repository's checked tasks, in DuckDB: per context level, the
tasks ranked by the spec's score (default lines(prompt) × lines(solution)), ties broken by solution
tokens then instance id, the first quota of each (default 66 self-contained, 67 file-level, 67
repo-level). --spec FILE is JSON: {"quotas": {...}, "score": "<SQL>", "filter": "<SQL>"}. A task
whose validation failed is passed over for the next of its level, when the level has enough others
(validate the new selection, then select again until nothing fails; curate does this itself). The
selection is stored with its spec. --explain prints each pick's rank and score and the cut-off per
level. --levels MODE chooses the labelling the quotas are over (${LEVEL_MODES.join(', ')}; or "levels"
in the spec; default the mode the tasks were built with): the tasks are re-labelled from the catalog,
nothing is mined or classified again.`;

export async function selectCommand(args: ParsedArgs, io: CommandIO): Promise<number> {
  if (args.positionals.length > 0) throw new RepocodError('usage', SELECT_USAGE);
  const specFile = stringOption(args, 'spec');
  const spec = selectionSpecOption(args);
  const catalog = await openCatalog(stringOption(args, 'db') ?? DEFAULT_CATALOG_PATH);
  try {
    const summary = await selectStage(catalog, spec, specFile ?? 'the default spec');
    io.out(formatSelection(summary, args.flags.get('explain') === true));
    return 0;
  } finally {
    await catalog.close();
  }
}

export function formatSelection(summary: SelectSummary, explain: boolean): string {
  const lines = [
    `selection ${summary.selectionId}: ${summary.picks.length} tasks; score ${summary.spec.score}; filter \
${summary.spec.filter}; levels ${summary.spec.levels}`,
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
      `  note: ${level.level} has ${level.available} tasks, fewer than its quota of ${level.quota}: all of them were \
taken`,
    );
  if (summary.passedOver.length > 0)
    lines.push(
      `  passed over: ${summary.passedOver.length} task(s) whose validation failed (repocod show ID says why)`,
    );
  if (explain) {
    for (const instanceId of summary.passedOver) lines.push(`    passed over (validation failed): ${instanceId}`);
    lines.push('  picks (level, rank, score, solution tokens, instance id):');
    for (const pick of summary.picks)
      lines.push(
        `    ${pick.level.padEnd(15)} ${String(pick.rank).padStart(4)} ${String(pick.score).padStart(8)} \
${String(pick.solutionTokens).padStart(6)}  ${pick.instanceId}`,
      );
  }
  return `${lines.join('\n')}\n`;
}
