import { existsSync } from 'node:fs';
import type { Catalog } from '@repocod/catalog';
import { CANDIDATE_MODE_NAMES, RepocodError } from '@repocod/core';
import type { RepositoryModeCounts } from '@repocod/fidelity';
import { candidateModeMarkdown, readReferenceTable } from '@repocod/fidelity';
import { catalogMiningOutcomes } from '../candidates/mining-outcomes.js';
import { candidateModeCounts } from './candidate-mode-counts.js';
import { REFERENCE_FOLDER_PATH } from './fidelity-report.js';
import { recordMiningOutcomes } from '../records/record-mining-outcomes.js';
import { repositoryTestNames } from '../candidates/repository-test-names.js';

export interface CandidateModeReport {
  readonly rows: readonly RepositoryModeCounts[];
  /** REPOCOD's task count per repository (the full benchmark, ACL version). */
  readonly totals: Readonly<Record<string, number>>;
  readonly markdown: string;
}

/**
 * `repocod report --candidate-modes`: every candidate mode on the catalog's repositories beside
 * REPOCOD's per-repository totals. Which candidates have relevant tests comes from the catalog and
 * from the committed records (`recordsFolder`), whose answers win where both have one.
 */
export async function candidateModeReport(
  catalog: Catalog,
  options: { readonly repositories?: readonly string[]; readonly recordsFolder: string },
): Promise<CandidateModeReport> {
  const known = await catalog.repositories();
  const wanted = options.repositories ?? known.map((repository) => repository.name);
  const rows: RepositoryModeCounts[] = [];
  for (const name of wanted) {
    const repository = known.find((candidate) => candidate.name === name);
    if (repository === undefined) {
      throw new RepocodError(
        'usage',
        `--repo ${name}: not in the catalog ${catalog.path} (it knows ${known.map((r) => r.name).join(', ')})`,
      );
    }
    if (!existsSync(repository.root)) {
      throw new RepocodError(
        'usage',
        `${name}: its checkout ${repository.root} is gone; the test modules are read from it ` +
          `(run \`repocod env ${name}\`)`,
      );
    }
    const candidates = await catalog.functions(name, { candidatesOnly: true });
    // The catalog's answers, then the record's over them: a committed record may hold more than the catalog.
    const outcomes = new Map([
      ...(await catalogMiningOutcomes(catalog, name)),
      ...(recordMiningOutcomes(options.recordsFolder, name, candidates) ?? []),
    ]);
    rows.push({
      repository: name,
      modes: candidateModeCounts(candidates, await repositoryTestNames(repository.root), outcomes),
    });
  }
  const reference = readReferenceTable(REFERENCE_FOLDER_PATH, 'full-v4');
  const totals = Object.fromEntries(
    Object.entries(reference.repositories).map(([repository, row]) => [repository, row.all.tasks]),
  );
  return { rows, totals, markdown: candidateModeMarkdown(rows, CANDIDATE_MODE_NAMES, totals) };
}
