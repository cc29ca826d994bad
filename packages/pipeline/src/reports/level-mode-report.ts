import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog } from '@repocod/catalog';
import type { ContextLevel, LevelMode } from '@repocod/core';
import { CONTEXT_LEVELS, LEVEL_MODES, RepocodError } from '@repocod/core';
import type { LevelMixReference, RepositoryLevelMix } from '@repocod/fidelity';
import { levelMixMarkdown, meanDistances, readReferenceTable } from '@repocod/fidelity';
import { listPythonFiles, loadPythonParser } from '@repocod/python';
import { buildRepositoryIndex } from '@repocod/tasks';
import { catalogMiningOutcomes, functionKey } from '../candidates/mining-outcomes.js';
import { classifyFunctions } from '../candidates/classify-functions.js';
import { REFERENCE_FOLDER_PATH } from './fidelity-report.js';
import { recordMiningOutcomes } from '../records/record-mining-outcomes.js';

export interface LevelModeReport {
  readonly rows: readonly RepositoryLevelMix[];
  /** Each mode's mean distance to each labelling over the repositories where every candidate was mined. */
  readonly means: Readonly<Record<LevelMode, Readonly<Record<LevelMixReference, number | null>>>>;
  readonly markdown: string;
}

/**
 * `repocod report --level-modes`: the level mix of every mode per repository beside REPOCOD's two
 * labellings (see levelMixMarkdown). The pool is what REPOCOD's tables count: the candidates mining
 * found relevant tests for, by the catalog or by the committed records (`recordsFolder`, whose answers
 * win: a record may hold a whole mining the catalog no longer has). A label depends on the source
 * alone, so the pool is labelled here from the repository's checkout under every mode; nothing runs.
 * A repository is complete when every candidate has an answer: only then is its mix REPOCOD's kind.
 */
export async function levelModeReport(
  catalog: Catalog,
  options: { readonly repositories?: readonly string[]; readonly recordsFolder: string },
): Promise<LevelModeReport> {
  const known = await catalog.repositories();
  const wanted = options.repositories ?? known.map((repository) => repository.name);
  const parser = await loadPythonParser();
  const rows: RepositoryLevelMix[] = [];
  for (const name of wanted) {
    const repository = known.find((candidate) => candidate.name === name);
    if (repository === undefined)
      throw new RepocodError(
        'usage',
        `--repo ${name}: not in the catalog ${catalog.path} (it knows ${known.map((r) => r.name).join(', ')})`,
      );
    if (!existsSync(repository.root))
      throw new RepocodError(
        'usage',
        `${name}: its checkout ${repository.root} is gone; the labels are read from its source (run ` +
          `\`repocod env ${name}\`)`,
      );
    const candidates = await catalog.functions(name, { candidatesOnly: true });
    const outcomes = new Map([
      ...(await catalogMiningOutcomes(catalog, name)),
      ...(recordMiningOutcomes(options.recordsFolder, name, candidates) ?? []),
    ]);
    const pool = candidates.filter((fn) => outcomes.get(functionKey(fn)) === true);
    const root = repository.root;
    const texts = new Map(listPythonFiles(root).map((file) => [file, readFileSync(join(root, file), 'utf8')]));
    const labelled = pool.length === 0 ? new Map() : classifyFunctions(buildRepositoryIndex(parser, texts), pool);
    const modes = Object.fromEntries(
      LEVEL_MODES.map((mode) => [
        mode,
        Object.fromEntries(
          CONTEXT_LEVELS.map((level) => [
            level,
            [...labelled.values()].filter((label) => label.levels[mode].level === level).length,
          ]),
        ),
      ]),
    ) as Record<LevelMode, Record<ContextLevel, number>>;
    const mined = candidates.filter((fn) => outcomes.has(functionKey(fn))).length;
    rows.push({
      repository: name,
      complete: candidates.length > 0 && mined >= candidates.length,
      candidates: candidates.length,
      mined,
      tasks: pool.length,
      modes,
    });
  }
  const references = {
    'full-v1': readReferenceTable(REFERENCE_FOLDER_PATH, 'full-v1'),
    'full-v4': readReferenceTable(REFERENCE_FOLDER_PATH, 'full-v4'),
  };
  return { rows, means: meanDistances(rows, references), markdown: levelMixMarkdown(rows, references) };
}
