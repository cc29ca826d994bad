import type { Catalog } from '@repocod/catalog';
import { RepocodError } from '@repocod/core';
import { projectName } from '@repocod/runner';

/** A repository's tasks at another commit that a stored selection picks: what building another commit would break. */
export class OtherCommitSelectedError extends RepocodError {
  readonly repository: string;
  /** The commit asked for, and the one the selected tasks were built at. */
  readonly baseCommit: string;
  readonly storedCommit: string;
  /** Each selection that picks some of them, with how many. */
  readonly selections: ReadonlyMap<string, number>;

  constructor(
    fields: Pick<OtherCommitSelectedError, 'repository' | 'baseCommit' | 'storedCommit' | 'selections'>,
    catalogPath: string,
  ) {
    const picked = [...fields.selections].map(([id, count]) => `${count} picked by selection ${id}`).join(', ');
    super(
      'usage',
      `${fields.repository}: the catalog ${catalogPath} holds its tasks at ${fields.storedCommit.slice(0, 12)} ` +
        `(${picked}); building it at ${fields.baseCommit.slice(0, 12)} under the same name would replace the tasks ` +
        `those ` +
        `selections name: build that commit with --at ` +
        `${projectName(fields.repository)}=${fields.baseCommit.slice(0, 12)}, ` +
        `which keeps it beside them as ${projectName(fields.repository)}@${fields.baseCommit.slice(0, 12)}, or in a ` +
        `catalog ` +
        `of its own (--db ${suggestedCatalog(fields)})`,
    );
    this.name = 'OtherCommitSelectedError';
    this.repository = fields.repository;
    this.baseCommit = fields.baseCommit;
    this.storedCommit = fields.storedCommit;
    this.selections = fields.selections;
  }
}

/**
 * Refuses to build `repository` at `baseCommit` in a catalog whose selections pick its tasks at another commit.
 * The catalog's rows are keyed by catalog name (files, functions, tasks). `--at` gives another commit a name of its
 * own (catalog-name.ts), so what reaches here is a manifest whose base commit moved, or a folder whose files changed:
 * their extraction and tasks replace the stored ones, harmless unless a selection (a release's) would silently name
 * tasks of another tree. Tasks at another commit that no selection picks may be replaced.
 */
export async function checkOneCommitPerCatalog(
  catalog: Catalog,
  repository: string,
  baseCommit: string,
): Promise<void> {
  const others = (await catalog.tasks(repository)).filter((task) => task.baseCommit !== baseCommit);
  const [first] = others;
  if (first === undefined) return;
  const ids = new Set(others.map((task) => task.instanceId));
  const selections = new Map<string, number>();
  for (const { selectionId } of await catalog.selections()) {
    const picks = (await catalog.selection(selectionId))?.picks ?? [];
    const count = picks.filter((pick) => ids.has(pick.instanceId)).length;
    if (count > 0) selections.set(selectionId, count);
  }
  if (selections.size === 0) return;
  throw new OtherCommitSelectedError(
    { repository, baseCommit, storedCommit: first.baseCommit, selections },
    catalog.path,
  );
}

function suggestedCatalog(fields: { readonly repository: string; readonly baseCommit: string }): string {
  return `.repocod/${projectName(fields.repository)}-${fields.baseCommit.slice(0, 8)}.duckdb`;
}
