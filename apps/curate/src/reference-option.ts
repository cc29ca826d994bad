import type { CandidateModeName } from '@repocod/core';
import { RepocodError } from '@repocod/core';
import type { ReferenceFunctions, SelectionSpec } from '@repocod/pipeline';
import type { ParsedArgs } from './parse-args.js';
import { stringOption } from './parse-args.js';

/** `--reference NAME` of mine and tasks: the stage's functions are the reference's, so no candidate mode applies. */
export function referenceOption(
  args: ParsedArgs,
  candidates: CandidateModeName | undefined,
): { readonly reference?: string } {
  const reference = stringOption(args, 'reference');
  if (reference === undefined) return {};
  if (candidates !== undefined)
    throw new RepocodError(
      'usage',
      `--candidates ${candidates} and --reference ${reference}: a reference names its functions itself; give one of ` +
        `them`,
    );
  return { reference };
}

/**
 * `curate --reference NAME [--keep-all]`: the flow's spec over the reference. Lite-first's options and a
 * candidate mode are refused with it: a reference names its functions, and every one is mined.
 */
export function referenceSpec(
  args: ParsedArgs,
  spec: SelectionSpec,
  candidates: CandidateModeName | undefined,
): SelectionSpec {
  const keepAll = args.flags.get('keep-all') === true;
  const { reference } = referenceOption(args, candidates);
  if (reference === undefined) {
    if (keepAll) throw new RepocodError('usage', '--keep-all goes with --reference NAME');
    return spec;
  }
  const lite =
    args.flags.get('all') === true ? '--all' : stringOption(args, 'margin') !== undefined ? '--margin' : null;
  if (lite !== null)
    throw new RepocodError(
      'usage',
      `${lite} and --reference ${reference}: a reference's functions are all mined (Lite-first does not apply)`,
    );
  return { ...spec, reference, ...(keepAll ? { keepAll } : {}) };
}

/** `  reference  repocod-flaky: 24 rows of datasets, 24 functions (0 outside our candidates), 0 unresolved`. */
export function referenceLine(found: ReferenceFunctions): string {
  const unresolved = found.unresolved.map(({ row, resolution }) =>
    resolution.status === 'unresolved'
      ? `#${row.index} ${row.functionName ?? row.instanceId ?? '?'} (${resolution.reason})`
      : '',
  );
  return (
    `  reference        ${found.reference}: ${found.rows} row(s) of the repository, ${found.keys.size} ` +
    `function(s) ` +
    `(${found.outsideCandidates} outside our candidates), ${found.unresolved.length} unresolved${
      unresolved.length > 0
        ? `: ${unresolved.slice(0, 5).join(', ')}${unresolved.length > 5 ? ', …' : ''} (repocod reference show ` +
          `${found.reference} --unresolved)`
        : ''
    }`
  );
}
