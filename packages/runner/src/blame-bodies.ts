import { type FunctionRecord, type LineSpan, solutionSpan } from '@repocod/core';
import { parseBlamePorcelain } from './blame-porcelain.js';
import { type BodyHistory, bodyHistory } from './body-history.js';
import { gitOutput } from './git.js';

/** What blame needs of a function: its file and the spans its body (the REPOCOD solution lines) is cut from. */
export type BlamedFunction = Pick<FunctionRecord, 'file' | 'signatureSpan' | 'docstringSpan' | 'bodySpan'>;

/**
 * How git blame follows a body's lines back, and why these options:
 *
 * - `-w`: a change of whitespace alone (re-indenting, a body moved into a class, spaces around an operator)
 *   leaves a line its older commit. A line split or joined (a formatter rewrapping a call) is a new line all the
 *   same: that is not whitespace within one line.
 * - `-M`: lines moved or copied within the file (a function moved above another) keep their older commit.
 * - `-C`: and lines moved or copied from another file changed in the same commit (a function moved to another
 *   module, a module split or renamed), which is the common refactoring (`-C` does what `-M` does as well; `-M` is
 *   written for the reader). One `-C` and not two: `-C -C` would also look at every other file of the commit that
 *   created the file, so a copy whose original stayed unchanged would keep the original's date, and `-C -C -C` at
 *   every file of every commit. On flask (src/flask/app.py, helpers.py, sansio/app.py) and sympy
 *   (sympy/core/expr.py, 4170 lines) at their Lite base commits, `-C -C` dated no line otherwise than `-C` and took
 *   about a fifth longer, `-C -C -C` two and a half times as long as `-C` on flask's app.py; `-C` itself costs twice
 *   `-M` on expr.py (seconds per large file), and it is what keeps flask's app.py, moved in 2024, from being dated
 *   entirely at the move. A copy of unchanged code into a new file is therefore dated at the copy: a limit.
 * - Moves and copies are found for blocks of at least 20 alphanumeric characters, git's default: a body of a line
 *   or two such as `return self._x` moved on its own is dated at the move.
 *
 * The user's git configuration is not let in where it would change the answer: `blame.ignoreRevsFile` is emptied
 * (a repository's list of reformatting commits is a choice to make deliberately, not one a curator's machine makes)
 * and the diff algorithm and indent heuristic are git's defaults.
 */
export const BODY_BLAME_ARGS: readonly string[] = [
  '-c',
  'blame.ignoreRevsFile=',
  '-c',
  'diff.algorithm=myers',
  '-c',
  'diff.indentHeuristic=true',
  'blame',
  '--porcelain',
  '-w',
  '-M',
  '-C',
];

/**
 * When each function's body was last written or changed, by git blame at `commit` in the repository at `checkout`
 * (a clone; its working tree is not read, so a worktree at another commit does as well). Blame runs once per file, on
 * the line ranges of that file's bodies alone (`-L` per body, overlapping ranges of nested functions merged by git;
 * the candidates' ranges of sympy's expr.py took half the time of the whole file), files one after another. A
 * function whose body holds no code line (docstring alone, one-line `def`) maps to null.
 * A file or line that is not there at `commit` is git's error (git-failed): the spans must be extracted at `commit`.
 * In a shallow clone the lines at its edge are dated by the edge commit and marked `boundary`.
 */
export async function blameFunctionBodies<F extends BlamedFunction>(
  checkout: string,
  commit: string,
  functions: readonly F[],
): Promise<Map<F, BodyHistory | null>> {
  const histories = new Map<F, BodyHistory | null>();
  const byFile = new Map<string, F[]>();
  for (const fn of functions) {
    const inFile = byFile.get(fn.file);
    if (inFile === undefined) byFile.set(fn.file, [fn]);
    else inFile.push(fn);
  }
  for (const [file, inFile] of byFile) {
    const spans = new Map(inFile.map((fn) => [fn, solutionSpan(fn)]));
    const ranges = [...spans.values()].filter((span) => span.end >= span.start);
    const blamed = ranges.length === 0 ? [] : await blameRanges(checkout, commit, file, ranges);
    for (const [fn, span] of spans) histories.set(fn, span.end < span.start ? null : bodyHistory(blamed, span));
  }
  return histories;
}

async function blameRanges(checkout: string, commit: string, file: string, ranges: readonly LineSpan[]) {
  const lineArgs = ranges.flatMap((span) => ['-L', `${span.start},${span.end}`]);
  return parseBlamePorcelain(await gitOutput(checkout, [...BODY_BLAME_ARGS, ...lineArgs, commit, '--', file]));
}
