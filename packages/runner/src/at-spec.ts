import { AtError } from './at-error.js';

/**
 * What a commit spec (the REF of `--at NAME=REF`) may be, read without git. The rules, stated once:
 *
 * - `YYYY-MM-DD`, a day of the calendar: the last commit on the default branch (see at-ref.ts) whose
 *   committer date is before 00:00 UTC of that day. A day that has not begun yet (UTC) is refused: the
 *   commit it names could still change.
 * - `HEAD`: the tip of the default branch.
 * - anything else is a revision for git: a full or short commit sha, a tag, a branch, with `~N` / `^N`
 *   after it if need be. What git would read as an option (a leading `-`), a range (`a..b`), a reflog
 *   entry (`@{...}`) or a path (`:`) is refused as malformed, as is a date-shaped value that is no day
 *   (`2024-02-30`).
 */
export type AtSpec =
  | {
      readonly kind: 'day';
      readonly day: string /** 00:00 UTC of the day, in ms since the epoch. */;
      readonly startsAt: number;
    }
  | { readonly kind: 'head' }
  | { readonly kind: 'revision'; readonly revision: string };

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
/** A name git accepts for a ref (no space, `:`, `?`, `*`, `[`, `\`, `..`, `@{`), then `~N` / `^N` suffixes. */
const REVISION = /^[A-Za-z0-9_][A-Za-z0-9_./+@-]*(?:[~^]\d*)*$/;

/** The spec read (see the rules above); `label` names it in errors (`--at flask=v9`). */
export function parseAtSpec(spec: string, label: string = spec): AtSpec {
  const day = DAY.exec(spec);
  if (day !== null) return { kind: 'day', day: spec, startsAt: dayStart(spec, label) };
  if (spec === 'HEAD') return { kind: 'head' };
  if (!REVISION.test(spec) || spec.includes('..') || spec.includes('@{') || spec.endsWith('.lock')) {
    throw new AtError({
      code: 'ref-malformed',
      label,
      spec,
      detail:
        `${JSON.stringify(spec)} is not a commit, tag, branch, HEAD or date; give e.g. a sha (2fec0b2), a tag ` +
        `(2.0.0), a branch (main), HEAD, or a day as YYYY-MM-DD (the last commit before it)`,
    });
  }
  return { kind: 'revision', revision: spec };
}

function dayStart(spec: string, label: string): number {
  const startsAt = Date.parse(`${spec}T00:00:00Z`);
  // Date.parse rolls 2024-02-30 over to March; a day that does not print back as itself does not exist.
  if (Number.isNaN(startsAt) || new Date(startsAt).toISOString().slice(0, 10) !== spec) {
    throw new AtError({
      code: 'ref-malformed',
      label,
      spec,
      detail: `${spec} is not a day of the calendar; give a date as YYYY-MM-DD, e.g. 2024-03-01`,
    });
  }
  return startsAt;
}
