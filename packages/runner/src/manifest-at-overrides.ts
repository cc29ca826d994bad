import { RepocodError } from '@repocod/core';
import type { ResolvedAt } from './at-ref.js';
import { parseAtSpec } from './at-spec.js';
import type { Manifest, ManifestEntry } from './manifest.js';
import { didYouMean } from './manifest-suggest.js';

/**
 * Resolves one repository's spec to a commit: where its history is read is the caller's choice (see
 * at-resolver.ts for the runner's). `label` is how the user wrote it, for errors: `--at flask=v9`.
 */
export type AtResolver = (entry: ManifestEntry, spec: string, label: string) => Promise<ResolvedAt>;

/** One `--at NAME=REF` option, read. */
export interface AtOverride {
  readonly name: string;
  readonly spec: string;
  /** The option as the user wrote it, for messages. */
  readonly label: string;
}

export interface AtOverridesApplied {
  readonly manifest: Manifest;
  /** What each overridden repository's spec resolved to, by name, for the line that tells the user. */
  readonly resolved: ReadonlyMap<string, ResolvedAt>;
}

/**
 * Reads the CLI's `--at NAME=REF` options against the manifest without touching git: each must name one of its
 * repositories, once, with a spec that at-spec.ts accepts. Checked up front so a typo fails before any clone.
 */
export function parseAtOverrides(manifest: Manifest, ats: readonly string[]): AtOverride[] {
  const known = manifest.repositories.map((entry) => entry.name);
  const seen = new Map<string, string>();
  return ats.map((at) => {
    const override = parseAtOverride(at);
    if (!known.includes(override.name)) {
      throw new RepocodError(
        'usage',
        `${override.label}: no repository named "${override.name}" in ${manifest.file}` +
          `${didYouMean(override.name, known)} (known: ${known.join(', ')})`,
      );
    }
    const earlier = seen.get(override.name);
    if (earlier !== undefined) {
      throw new RepocodError(
        'usage',
        `${override.label}: "${override.name}" is already taken at ${earlier}; give one --at per repository`,
      );
    }
    seen.set(override.name, override.spec);
    parseAtSpec(override.spec, override.label);
    return override;
  });
}

/** `NAME=REF` read; the name is everything before the first `=`. */
export function parseAtOverride(at: string): AtOverride {
  const equals = at.indexOf('=');
  const name = equals < 0 ? '' : at.slice(0, equals).trim();
  const spec = equals < 0 ? '' : at.slice(equals + 1).trim();
  if (name === '' || spec === '') {
    throw new RepocodError(
      'usage',
      `--at ${JSON.stringify(at)} must look like NAME=REF (a commit, tag, branch, HEAD, or a day YYYY-MM-DD), e.g. ` +
        `--at flask=HEAD`,
    );
  }
  return { name, spec, label: `--at ${name}=${spec}` };
}

/**
 * Applies `--at NAME=REF`: repository NAME is built at the commit REF resolves to instead of the manifest's
 * base_commit. Everything keyed by the base commit follows from the entry: the checkout, the environment (its key,
 * and its packages resolved as of the commit's date: a date the manifest pinned with exclude_newer was chosen for
 * the manifest's commit and is dropped, `none` stays), mining keys, runs and the tasks' base_commit. The manifest's
 * stand_in (an sdist of the manifest's commit) no longer fits either and is dropped. The moved entry keeps the
 * manifest's commit (manifestCommit): it is another era, kept beside the manifest's build in a catalog under
 * `NAME@COMMIT12` (catalog-name.ts); REF naming the manifest's own commit changes nothing. A repository taken from a
 * folder that is not a git repository (a stand-in given with --source) has no history to pick a commit from.
 */
export async function applyAtOverrides(
  manifest: Manifest,
  ats: readonly string[],
  resolve: AtResolver,
): Promise<AtOverridesApplied> {
  const overrides = parseAtOverrides(manifest, ats);
  if (overrides.length === 0) return { manifest, resolved: new Map() };
  const resolved = new Map<string, ResolvedAt>();
  for (const override of overrides) {
    const entry = manifest.repositories.find((candidate) => candidate.name === override.name);
    if (entry === undefined) continue;
    if (entry.url === null && entry.standInFor !== undefined) {
      throw new RepocodError(
        'usage',
        `${override.label}: ${entry.name} is taken from ${entry.source}, which is not a git repository (a stand-in ` +
          `for ${entry.standInFor.slice(0, 12)}), so it has no other commit: leave out --at ${entry.name} to build ` +
          `it as it is (its recipe chosen by the release's date), or give a clone with --source ${entry.name}=PATH`,
      );
    }
    resolved.set(entry.name, await resolve(entry, override.spec, override.label));
  }
  return {
    manifest: {
      ...manifest,
      repositories: manifest.repositories.map((entry) => {
        const at = resolved.get(entry.name);
        return at === undefined ? entry : atCommit(entry, at.commit);
      }),
    },
    resolved,
  };
}

function atCommit(entry: ManifestEntry, commit: string): ManifestEntry {
  // The manifest's own commit is the manifest's build, its pinned resolution date and stand-in included.
  if (entry.manifestCommit === undefined && entry.baseCommit === commit) return entry;
  const { excludeNewer, standIn, ...kept } = entry;
  // The commit the manifest names, kept so the entry knows it is another era (catalog-name.ts); --at that names
  // the manifest's own commit leaves it the manifest's build.
  const manifestCommit = entry.manifestCommit === undefined ? entry.baseCommit : entry.manifestCommit;
  const era = manifestCommit === commit ? {} : { manifestCommit };
  const { manifestCommit: _earlier, ...rest } = kept;
  return { ...rest, baseCommit: commit, ...keptPin(excludeNewer), ...era };
}

/** The manifest's exclude_newer under another commit: `none` (no limit) still holds, a date does not. */
function keptPin(excludeNewer: string | undefined): { excludeNewer?: string } {
  return excludeNewer === 'none' ? { excludeNewer } : {};
}
