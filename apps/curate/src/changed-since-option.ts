import { parseChangedSince } from '@repocod/pipeline';
import type { ParsedArgs } from './parse-args.js';
import { stringOption } from './parse-args.js';

/** The usage lines' words for `--changed-since`. */
export const CHANGED_SINCE_HELP = `--changed-since DATE keeps only the candidates whose body was written or changed
after DATE (a day, UTC, or a timestamp with its zone): each body is dated by git blame at the base commit (its
newest code line's author time; whitespace-only changes ignored, moves within and across files followed: -w -M
-C), for a version of code newer than a model's training cutoff. It needs a clone with its history and a DATE
before the base commit.`;

/** `--changed-since DATE` as a UTC cutoff, checked now (not a date, in the future); undefined when not given. */
export function changedSinceOption(args: ParsedArgs): string | undefined {
  const value = stringOption(args, 'changed-since');
  return value === undefined ? undefined : parseChangedSince(value, new Date());
}
