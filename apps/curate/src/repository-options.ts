import type { ParsedArgs } from './parse-args.js';
import { listOption, stringOption } from './parse-args.js';
import { PROJECT_ROOT, stateRoot } from './project-root.js';

/**
 * Where a command finds the repositories (the manifest, `--source`), at which commits (`--at`, for the commands
 * that check out: the others do not declare it) and where it keeps their state: every stage's.
 */
export function repositoryOptions(args: ParsedArgs): {
  readonly projectRoot: string;
  readonly stateRoot: string;
  readonly manifest: string | undefined;
  readonly sources: readonly string[];
  readonly ats: readonly string[];
} {
  return {
    projectRoot: PROJECT_ROOT,
    stateRoot: stateRoot(),
    manifest: stringOption(args, 'manifest'),
    sources: listOption(args, 'source'),
    ats: listOption(args, 'at'),
  };
}
