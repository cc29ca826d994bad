import { RepocodError } from '@repocod/core';
import type { ManifestEntry } from './manifest.js';
import { utcTimestamp } from './utc-date.js';

/**
 * A repository's recipe changes between eras (flask's requirements/tests.txt became a dependency group in 2025,
 * sphinx 2026 needs Python 3.12), so an entry may carry dated variants: each names where it starts and the fields
 * it sets instead of the entry's own. The rules, stated once:
 *
 * - a variant starts at a moment (a day, its start in UTC, or a timestamp with its zone) or at a commit;
 * - a moment applies to base commits committed on or after it; a commit applies to itself and its descendants;
 * - variants are listed oldest first, each starting strictly after the one before (a commit's start is its own
 *   committer date, known only once the history is read, so those are checked when one is chosen);
 * - at a base commit the last variant that applies is chosen, and its fields replace the entry's own, one by one
 *   (a variant does not inherit an earlier variant's fields: each reads as the whole change from the entry);
 * - no variant applies: the entry's own fields, exactly as if it had no variants (so environments keep their key).
 */

/**
 * The fields a variant may set: what decides the environment and how its tests run (how often mining and validation
 * run them included: a suite that grew, or a cheaper way of telling flaky tests, belongs to an era), not where the
 * code is.
 */
export const VARIANT_FIELD_KEYS = [
  'python',
  'package_root',
  'install',
  'test_roots',
  'pytest_args',
  'deselect',
  'env',
  'timeout',
  'baseline_runs',
  'baseline_reruns',
  'validate_runs',
] as const;

/** The same fields as properties of the entry. */
export type VariantFields = Partial<
  Pick<
    ManifestEntry,
    | 'python'
    | 'packageRoot'
    | 'install'
    | 'testRoots'
    | 'pytestArgs'
    | 'deselect'
    | 'env'
    | 'timeoutSeconds'
    | 'baselineRuns'
    | 'baselineReruns'
    | 'validateRuns'
  >
>;

/** Where a variant starts, as written (`text`) and as read. */
export type VariantStart =
  | { readonly kind: 'moment'; readonly text: string /** UTC `YYYY-MM-DDTHH:MM:SSZ` */; readonly at: string }
  | { readonly kind: 'commit'; readonly text: string; readonly commit: string };

export interface RecipeVariant {
  readonly from: VariantStart;
  /** Why the recipe changed there, for the curator who reads it next. */
  readonly why: string;
  readonly fields: VariantFields;
  /** Where it is written (`manifest.yaml:42`), for the problems found only when a commit is known. */
  readonly where: string;
}

/** What the history says of a variant that starts at a commit. */
export interface StartCommitFacts {
  /** Its committer date, ISO 8601 with a zone. */
  readonly committedAt: string;
  /** Whether the base commit is it or one of its descendants. */
  readonly reached: boolean;
}

/** The base commit a recipe is chosen for, and what its history says of the variants' start commits. */
export interface BaseCommitFacts {
  readonly commit: string;
  /** Its committer date, ISO 8601 with a zone. */
  readonly committedAt: string;
  /** By start commit; a commit the history lacks is left out (it cannot be an ancestor, so it does not apply). */
  readonly startCommits: ReadonlyMap<string, StartCommitFacts>;
}

/** The recipe at a base commit: the entry with the chosen variant's fields in place, and which one it was. */
export interface RecipeChoice {
  /** The entry at that commit, without its `variants` (a repository's jobs need the recipe, not the choice). */
  readonly entry: ManifestEntry;
  /** The chosen variant and its index in the list; null when the entry's own fields apply. */
  readonly chosen: { readonly variant: RecipeVariant; readonly index: number } | null;
  readonly variants: readonly RecipeVariant[];
  readonly baseCommittedAt: string;
}

/** The recipe of `entry` at the base commit `base` describes (see the rules above). */
export function chooseRecipe(entry: ManifestEntry, base: BaseCommitFacts): RecipeChoice {
  const { variants = [], ...own } = entry;
  const baseAt = millis(base.committedAt, 'the base commit date');
  let chosen: RecipeChoice['chosen'] = null;
  let previous: { at: number; index: number } | null = null;
  for (const [index, variant] of variants.entries()) {
    const startsAt = startOf(variant, base);
    if (startsAt !== null && previous !== null && startsAt <= previous.at) {
      throw new RepocodError(
        'config-invalid',
        `${variant.where}: ${entry.name}.variants[${index}].from ${variant.from.text} starts at ` +
          `${utcTimestamp(startsAt)}, not after variants[${previous.index}] (${utcTimestamp(previous.at)}); list ` +
          `variants ` +
          `oldest first, each starting later`,
      );
    }
    if (startsAt !== null) previous = { at: startsAt, index };
    if (applies(variant, base, baseAt)) chosen = { variant, index };
  }
  return {
    // The entry's fields with the variant's in their place: the same properties, so the same type.
    entry: (chosen === null ? own : { ...own, ...chosen.variant.fields }) as ManifestEntry,
    chosen,
    variants,
    baseCommittedAt: base.committedAt,
  };
}

/** One line for people: which recipe applies at the commit, and why. Null for an entry without variants. */
export function describeRecipeChoice(choice: RecipeChoice): string | null {
  if (choice.variants.length === 0) return null;
  if (choice.chosen === null) {
    const first = choice.variants[0]?.from.text ?? '';
    return `the entry's own (the commit, of ${choice.baseCommittedAt}, is before variants[0] from ${first})`;
  }
  const { variant, index } = choice.chosen;
  return `variants[${index}] from ${variant.from.text} (${variant.where}): ${variant.why}`;
}

/** The moment a variant starts; null for a start commit the history lacks. */
function startOf(variant: RecipeVariant, base: BaseCommitFacts): number | null {
  if (variant.from.kind === 'moment') return millis(variant.from.at, 'from');
  const facts = base.startCommits.get(variant.from.commit);
  return facts === undefined ? null : millis(facts.committedAt, `the date of ${variant.from.commit}`);
}

function applies(variant: RecipeVariant, base: BaseCommitFacts, baseAt: number): boolean {
  if (variant.from.kind === 'moment') return baseAt >= millis(variant.from.at, 'from');
  if (variant.from.commit === base.commit) return true;
  return base.startCommits.get(variant.from.commit)?.reached === true;
}

function millis(timestamp: string, what: string): number {
  const value = Date.parse(timestamp);
  if (Number.isNaN(value))
    throw new RepocodError('config-invalid', `${what} ${JSON.stringify(timestamp)} is not a date`);
  return value;
}
