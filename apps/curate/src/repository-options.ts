import type { ParsedArgs } from './parse-args.js';
import { listOption, stringOption } from './parse-args.js';
import { PROJECT_ROOT, stateRoot } from './project-root.js';

/** Where a command finds the repositories (the manifest, `--source`) and keeps their state: every stage's. */
export function repositoryOptions(args: ParsedArgs): {
  readonly projectRoot: string;
  readonly stateRoot: string;
  readonly manifest: string | undefined;
  readonly sources: readonly string[];
} {
  return {
    projectRoot: PROJECT_ROOT,
    stateRoot: stateRoot(),
    manifest: stringOption(args, 'manifest'),
    sources: listOption(args, 'source'),
  };
}
