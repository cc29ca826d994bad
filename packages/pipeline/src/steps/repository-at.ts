import { join } from 'node:path';
import type { ManifestEntry, RunnerPaths } from '@repocod/runner';
import { applyAtOverrides, checkoutAtResolver, parseAtOverride } from '@repocod/runner';

/**
 * The entry at the commit its own `--at NAME=REF` names (the others' are for other repositories), or the entry as
 * it is when none names it. The history is read where the checkout comes from (checkoutAtResolver: a local clone
 * in place, a url's clone under the state folder after a fetch); `onLog` hears what REF turned out to be.
 */
export async function repositoryAt(
  entry: ManifestEntry,
  ats: readonly string[],
  paths: RunnerPaths,
  onLog?: (line: string) => void,
): Promise<ManifestEntry> {
  const own = ats.map(parseAtOverride).filter((at) => at.name === entry.name);
  if (own.length === 0) return entry;
  const resolver = checkoutAtResolver({ reposRoot: join(paths.stateRoot, 'repos'), projectRoot: paths.projectRoot });
  const { manifest, resolved } = await applyAtOverrides(
    { file: 'the manifest', repositories: [entry] },
    own.map((at) => `${at.name}=${at.spec}`),
    resolver,
  );
  const at = resolved.get(entry.name);
  if (at !== undefined) {
    const asked = own.map((spec) => spec.label).join(' ');
    onLog?.(`${entry.name}: ${asked} is ${at.commit.slice(0, 12)}, ${at.describedAs}, committed ${at.committedAt}`);
  }
  return manifest.repositories[0] ?? entry;
}
