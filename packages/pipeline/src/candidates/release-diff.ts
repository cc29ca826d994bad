import { isCodeLine } from '@repocod/core';

/**
 * How a function of a snapshot fares against an older release of the project: the pure half of dating a source
 * without history by release diff (`--dated-against`; release-diff-dates.ts reads the files). The rules, stated
 * once:
 *
 * - A function's body is its REPOCOD solution (`slices.solution`: the lines after the docstring, or after the
 *   signature without one, through the body's last line), the lines blame dates: a change to the docstring or the
 *   signature alone does not count.
 * - Two bodies are the same when their code lines are, each with every whitespace character removed: a blank or
 *   comment-only line (core's isCodeLine, the rule blame's newest code line is chosen by) added, removed or edited
 *   does not count, nor does re-indenting or respacing a line, as with blame's `-w`. A comment after code on the
 *   same line is part of that line, and changing it counts. A line split in two or two joined is a change.
 * - A function is matched by its file (its path relative to the source's root: the sdist's folder on both sides)
 *   and its qualified name. It is `unchanged` when a function of that file and name in the older release has the
 *   same body (a name defined twice, under `if`/`else`, matches either), `changed` when the name is there with other
 *   bodies only, and `added` when it is not there: a new function, or one moved to another file or renamed (blame's
 *   `-M -C` would follow such a move; a release diff dates the body at the move).
 * - A body without a code line (a docstring alone) has nothing to date: `no-code-line`, where blame gives null.
 *
 * `changed` and `added` bodies changed after the older release; `unchanged` ones did not.
 */
export type BodyChange = 'changed' | 'added' | 'unchanged' | 'no-code-line';

/** What the comparison needs of a function, on either side. */
export interface ComparedBody {
  readonly file: string;
  readonly qualname: string;
  /** Its REPOCOD slices: the solution is the body compared. */
  readonly slices: { readonly solution: string };
}

/** Each newer function's change against the older release's functions (see the rules above). */
export function bodyChanges<F extends ComparedBody>(
  newer: readonly F[],
  older: readonly ComparedBody[],
): Map<F, BodyChange> {
  const olderBodies = new Map<string, Set<string | null>>();
  for (const fn of older) {
    const key = functionKey(fn);
    const bodies = olderBodies.get(key) ?? new Set<string | null>();
    bodies.add(normalizedBody(fn.slices.solution));
    olderBodies.set(key, bodies);
  }
  const changes = new Map<F, BodyChange>();
  for (const fn of newer) {
    const body = normalizedBody(fn.slices.solution);
    const before = olderBodies.get(functionKey(fn));
    changes.set(
      fn,
      body === null ? 'no-code-line' : before === undefined ? 'added' : before.has(body) ? 'unchanged' : 'changed',
    );
  }
  return changes;
}

/** Whether a change means the body changed after the older release. */
export function changedAfterOlder(change: BodyChange): boolean {
  return change === 'changed' || change === 'added';
}

/** A body's code lines without whitespace, one per line; null when it has no code line. */
export function normalizedBody(solution: string): string | null {
  const lines = solution
    .split('\n')
    .filter(isCodeLine)
    .map((line) => line.replace(/\s+/g, ''));
  return lines.length === 0 ? null : lines.join('\n');
}

function functionKey(fn: ComparedBody): string {
  return `${fn.file}\n${fn.qualname}`;
}
