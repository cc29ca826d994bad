/** A repository as the manifest knows it: its name and, for a cloned one, its git URL. */
export interface ManifestRepository {
  readonly name: string;
  readonly url: string | null;
}

/** `https://github.com/owner/name.git`, `git@github.com:owner/name` → `owner/name`; null for other URLs. */
export function ownerAndName(url: string): string | null {
  const match = /[/:]([^/:]+)\/([^/]+?)(?:\.git)?\/?$/.exec(url);
  return match === null ? null : `${match[1]}/${match[2]}`;
}

/**
 * The manifest's name of a repository as a reference names it. REPOCOD's rows use the short names its
 * download script clones into (`plotly.py`, `scikit-learn`), which are the manifest's names; the seed's
 * `repo` is the GitHub `owner/name` (`plotly/plotly.py`), matched with the manifest's URL, or with the
 * name alone when the manifest entry has no URL (a local folder). Case is ignored, as GitHub ignores it.
 */
export function manifestNameOf(given: string, repositories: readonly ManifestRepository[]): string | null {
  const wanted = given.trim().toLowerCase();
  const byName = repositories.find((repository) => repository.name.toLowerCase() === wanted);
  if (byName !== undefined) return byName.name;
  const byUrl = repositories.find(
    (repository) => repository.url !== null && ownerAndName(repository.url)?.toLowerCase() === wanted,
  );
  if (byUrl !== undefined) return byUrl.name;
  const last = wanted.split('/').at(-1) ?? wanted;
  if (!wanted.includes('/')) return null;
  return (
    repositories.find((repository) => repository.url === null && repository.name.toLowerCase() === last)?.name ?? null
  );
}

/** The seed's `repo` of a manifest repository: `owner/name` from its URL, else its name. */
export function seedRepoOf(repository: ManifestRepository): string {
  return (repository.url === null ? null : ownerAndName(repository.url)) ?? repository.name;
}
