import type { Checkout } from './checkout.js';
import { commitTime, gitSucceeds } from './git.js';
import type { ManifestEntry } from './manifest.js';
import { chooseRecipe, type RecipeChoice, type StartCommitFacts } from './recipe-variant.js';

/**
 * The recipe at the checkout's commit (chooseRecipe), with what the variants need read from its history: the date
 * of each start commit and whether the base commit descends from it. A start commit the clone lacks is left out: a
 * base commit's ancestors are in its clone, so such a variant does not apply (a shallow clone would mislead here).
 * A stand-in's snapshot commit has the runner's fixed date, so its era is its release's date instead.
 */
export async function recipeAtCheckout(entry: ManifestEntry, checkout: Checkout): Promise<RecipeChoice> {
  const startCommits = new Map<string, StartCommitFacts>();
  for (const variant of entry.variants ?? []) {
    if (variant.from.kind !== 'commit') continue;
    const start = variant.from.commit;
    if (!(await gitSucceeds(checkout.path, ['cat-file', '-e', `${start}^{commit}`]))) continue;
    startCommits.set(start, {
      committedAt: await commitTime(checkout.path, start),
      reached: await gitSucceeds(checkout.path, ['merge-base', '--is-ancestor', start, checkout.baseCommit]),
    });
  }
  return chooseRecipe(entry, {
    commit: checkout.baseCommit,
    committedAt: eraOf(entry, checkout),
    startCommits,
  });
}

/** When a checkout's era starts: its commit's date, or a stand-in's release date (its snapshot commit's is ours). */
function eraOf(entry: ManifestEntry, checkout: Checkout): string {
  return (entry.url === null ? entry.standInReleasedAt : undefined) ?? checkout.commitTimestamp;
}
