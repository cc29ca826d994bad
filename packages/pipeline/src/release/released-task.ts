import { RepocodError } from '@repocod/core';
import { projectName, releaseInstanceId } from '@repocod/runner';

/**
 * A task as a release, a record and a diff name it: its instance id without the era's `@COMMIT12` and its repository
 * the manifest's name (catalog-name.ts). Validations, picks and body dates are looked up by the catalog's names
 * before a task is turned into this.
 */
export function releasedTask<T extends { readonly instanceId: string; readonly repository: string }>(task: T): T {
  return { ...task, instanceId: releaseInstanceId(task.instanceId), repository: projectName(task.repository) };
}

/** Tasks of one repository at two commits in what should be one version of it: their ids would collide. */
export class TwoErasError extends RepocodError {
  /** The repository, and each of its catalog names that was given, with how many times (its tasks, say). */
  readonly repository: string;
  readonly eras: ReadonlyMap<string, number>;

  constructor(fields: Pick<TwoErasError, 'repository' | 'eras'>, what: string, fix: string) {
    super(
      'usage',
      `${what}: ${fields.repository} at ${fields.eras.size} commits (${[...fields.eras.keys()].join(', ')}); a ` +
        `version ` +
        `takes one commit of a repository, so that an instance id names one task: ${fix}`,
    );
    this.name = 'TwoErasError';
    this.repository = fields.repository;
    this.eras = fields.eras;
  }
}

/** Refuses tasks that span two eras of one repository (see TwoErasError); `what` and `fix` are for the message. */
export function checkOneEraPerRepository(
  tasks: readonly { readonly repository: string }[],
  what: string,
  fix: (names: readonly string[]) => string,
): void {
  const byProject = new Map<string, Map<string, number>>();
  for (const { repository } of tasks) {
    const eras = byProject.get(projectName(repository)) ?? new Map<string, number>();
    eras.set(repository, (eras.get(repository) ?? 0) + 1);
    byProject.set(projectName(repository), eras);
  }
  for (const [repository, eras] of byProject) {
    if (eras.size < 2) continue;
    const sorted = new Map([...eras].sort(([a], [b]) => (a < b ? -1 : 1)));
    throw new TwoErasError({ repository, eras: sorted }, what, fix([...sorted.keys()]));
  }
}
