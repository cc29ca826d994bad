import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Catalog, StoredTask } from '@repocod/catalog';
import { RepocodError } from '@repocod/core';
import type { BinComparison, FidelityComparison, MeasuredTask, ReferenceName } from '@repocod/fidelity';
import {
  compareBins,
  compareWithReference,
  fidelityMarkdown,
  readReferenceBins,
  readReferenceTable,
  taskStatistics,
} from '@repocod/fidelity';
import { readRelease } from '@repocod/publish';

/** Where REPOCOD's published figures are, relative to the project. */
export const REFERENCE_FOLDER = 'datasets/repocod/reference';

/** That folder in this checkout (from src/ or dist/ alike: both are two levels below the project). */
export const REFERENCE_FOLDER_PATH = fileURLToPath(new URL(`../../../../${REFERENCE_FOLDER}`, import.meta.url));

/** What `repocod report` compares: the catalog's tasks and its selection, one selection, or a release. */
export type ReportSubject =
  | { readonly kind: 'catalog' }
  | { readonly kind: 'selection'; readonly selectionId?: string }
  | { readonly kind: 'release'; readonly folder: string; readonly version?: string };

export interface FidelitySection {
  readonly title: string;
  readonly tasks: number;
  readonly comparison: FidelityComparison;
  readonly bins: readonly BinComparison[];
  readonly markdown: string;
}

/**
 * The comparison sections of a report: the catalog's tasks that pass their checks against the full
 * benchmark and its latest selection against Lite (kind catalog), or one selection or one release
 * against the table `against` names (default Lite). Bins only beside the full benchmark, whose
 * Figure 4 they are.
 */
export async function fidelitySections(
  catalog: Catalog,
  subject: ReportSubject,
  options: { readonly projectRoot: string; readonly against?: ReferenceName },
): Promise<FidelitySection[]> {
  const folder = join(options.projectRoot, REFERENCE_FOLDER);
  const section = (title: string, tasks: readonly MeasuredTask[], against: ReferenceName): FidelitySection =>
    fidelitySection(title, tasks, against, folder);
  switch (subject.kind) {
    case 'catalog': {
      const tasks = (await catalog.tasks()).filter((task) => task.checksPassed);
      const against = options.against ?? 'full-v4';
      const sections = [
        section(
          `All ${tasks.length} tasks that pass their checks, against ${TITLES[against]}`,
          tasks.map(measured),
          against,
        ),
      ];
      const selection = await catalog.selection();
      if (selection !== null)
        sections.push(await selectionSection(catalog, selection.selectionId, options.against, section));
      return sections;
    }
    case 'selection':
      return [await selectionSection(catalog, subject.selectionId, options.against, section)];
    case 'release': {
      const release = readRelease(subject.folder, subject.version);
      const tasks = release.tasks.map((task): MeasuredTask => {
        if (task.meta === null)
          throw new RepocodError(
            'config-invalid',
            `${release.file}: ${task.instanceId} has no line in ${release.version}/tasks.jsonl, which holds the ` +
              'level and the lengths a report needs (a release written by repocod publish has one)',
          );
        return {
          repository: task.meta.repository,
          level: task.meta.level as MeasuredTask['level'],
          promptTokens: task.meta.promptTokens,
          solutionTokens: task.meta.solutionTokens,
          complexity: task.meta.complexity,
        };
      });
      const against = options.against ?? 'lite';
      return [
        section(`Release ${release.version} (${tasks.length} tasks), against ${TITLES[against]}`, tasks, against),
      ];
    }
  }
}

/** One comparison: the tasks' statistics beside the table `against` names, and Figure 4's bins beside the full one. */
export function fidelitySection(
  title: string,
  tasks: readonly MeasuredTask[],
  against: ReferenceName,
  folder: string = REFERENCE_FOLDER_PATH,
): FidelitySection {
  const reference = readReferenceTable(folder, against);
  const comparison = compareWithReference(taskStatistics(tasks), reference);
  const bins = against === 'lite' ? [] : compareBins(tasks, readReferenceBins(folder));
  return { title, tasks: tasks.length, comparison, bins, markdown: fidelityMarkdown(title, comparison, bins) };
}

export const TITLES: Readonly<Record<ReferenceName, string>> = {
  'full-v4': "REPOCOD (980 tasks, the ACL version's levels)",
  'full-v1': "REPOCOD (980 tasks, the first version's levels)",
  lite: 'REPOCOD-Lite (200 tasks)',
};

async function selectionSection(
  catalog: Catalog,
  selectionId: string | undefined,
  against: ReferenceName | undefined,
  section: (title: string, tasks: readonly MeasuredTask[], against: ReferenceName) => FidelitySection,
): Promise<FidelitySection> {
  const selection = await catalog.selection(selectionId);
  if (selection === null) {
    const which =
      selectionId === undefined
        ? 'no selection in the catalog yet; run `repocod select`'
        : `--selection ${selectionId}: no such selection`;
    throw new RepocodError('usage', `${which}; \`repocod sql "select * from selections"\` lists them`);
  }
  const picked = new Set(selection.picks.map((pick) => pick.instanceId));
  const tasks = (await catalog.tasks()).filter((task) => picked.has(task.instanceId));
  const table = against ?? 'lite';
  return section(
    `Selection ${selection.selectionId} (${tasks.length} tasks), against ${TITLES[table]}`,
    tasks.map(measured),
    table,
  );
}

/** What the comparison reads of a task; an era's tasks (`flask@2ac89889f4cc`) are their repository's. */
export function measured(task: StoredTask): MeasuredTask {
  return {
    repository: task.repository.split('@')[0] ?? task.repository,
    level: task.level,
    promptTokens: task.promptTokens,
    solutionTokens: task.solutionTokens,
    complexity: task.complexity,
  };
}

export { fidelityHtml, type ReferenceName } from '@repocod/fidelity';
