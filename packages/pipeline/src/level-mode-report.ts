import type { Catalog } from '@repocod/catalog';
import type { ContextLevel, LevelMode } from '@repocod/core';
import { CONTEXT_LEVELS, LEVEL_MODES, RepocodError } from '@repocod/core';
import type { LevelMixReference, RepositoryLevelMix } from '@repocod/fidelity';
import { levelMixMarkdown, meanDistances, readReferenceTable } from '@repocod/fidelity';
import { catalogMiningOutcomes, functionKey } from './candidate-mode-counts.js';
import { REFERENCE_FOLDER_PATH } from './fidelity-report.js';
import { recordMiningOutcomes } from './record-mining-outcomes.js';

export interface LevelModeReport {
  readonly rows: readonly RepositoryLevelMix[];
  /** Each mode's mean distance to each labelling over the repositories where every candidate was mined. */
  readonly means: Readonly<Record<LevelMode, Readonly<Record<LevelMixReference, number | null>>>>;
  readonly markdown: string;
}

/**
 * `repocod report --level-modes`: the level mix of every mode on the catalog's tasks (those that pass
 * their checks), per repository, beside REPOCOD's two labellings (see levelMixMarkdown). A repository is
 * complete when every candidate has a mining answer, in the catalog or in its committed record
 * (`recordsFolder`): only then is its task pool the one REPOCOD's table counts.
 */
export async function levelModeReport(
  catalog: Catalog,
  options: { readonly repositories?: readonly string[]; readonly recordsFolder: string },
): Promise<LevelModeReport> {
  const tasks = (await catalog.tasks()).filter((task) => task.checksPassed);
  const known = [...new Set(tasks.map((task) => task.repository))].sort();
  const wanted = options.repositories ?? known;
  const rows: RepositoryLevelMix[] = [];
  for (const repository of wanted) {
    const own = tasks.filter((task) => task.repository === repository);
    if (own.length === 0)
      throw new RepocodError(
        'usage',
        `--repo ${repository}: no tasks in the catalog ${catalog.path} (it has tasks of ${known.join(', ') || 'none'})`,
      );
    const candidates = await catalog.functions(repository, { candidatesOnly: true });
    const outcomes = new Map([
      ...(await catalogMiningOutcomes(catalog, repository)),
      ...(recordMiningOutcomes(options.recordsFolder, repository, candidates) ?? []),
    ]);
    const mined = candidates.filter((fn) => outcomes.has(functionKey(fn))).length;
    const modes = Object.fromEntries(
      LEVEL_MODES.map((mode) => [
        mode,
        Object.fromEntries(
          CONTEXT_LEVELS.map((level) => [level, own.filter((task) => task.levels[mode]?.level === level).length]),
        ),
      ]),
    ) as Record<LevelMode, Record<ContextLevel, number>>;
    rows.push({
      repository,
      complete: candidates.length > 0 && mined >= candidates.length,
      candidates: candidates.length,
      mined,
      tasks: own.length,
      modes,
    });
  }
  const references = {
    'full-v1': readReferenceTable(REFERENCE_FOLDER_PATH, 'full-v1'),
    'full-v4': readReferenceTable(REFERENCE_FOLDER_PATH, 'full-v4'),
  };
  return {
    rows,
    means: meanDistances(rows, references),
    markdown: levelMixMarkdown(rows, references),
  };
}
