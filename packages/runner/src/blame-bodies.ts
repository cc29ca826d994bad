import { type FunctionRecord, type LineSpan, solutionSpan } from '@repocod/core';
import { type BlameLine, parseBlamePorcelain } from './blame-porcelain.js';
import { type BodyHistory, bodyHistory } from './body-history.js';
import { git, gitOutput } from './git.js';

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
 * The blame of a file whose `-C` blame cannot be made: `-C` reads the blobs of every file the commits it passes
 * changed, and a clone made under a size limit lacks some of them (astropy's utils/data.py passes the commit that
 * removed the 2023 IERS tables, whose blobs the mirror dropped). The rules, once:
 *
 * - Only a blob the clone cannot read (git's "unable to read" or "bad object") makes the fallback; any other failure
 *   is git's error as before.
 * - The file is blamed again without `-C`. Without it a line can only be dated at a newer commit than with it, never
 *   an older one, so a body's date is exact when its newest line's commit is a root or changed no other Python file
 *   (`-C` would have had nothing to copy from but non-Python files), and otherwise only an upper bound.
 * - A body whose date is an upper bound is marked `exact: false`: it may be older, so the pipeline does not
 *   count it as changed after a cutoff. The conservative side, as with a body merged after the cutoff.
 * - Blame also reads old blobs to follow a file through a rename (plotly.py's move of its package to the root, in
 *   2025, reads every large file of that commit). Given `since` (the last commit before a cutoff), the fallbacks
 *   blame the range `since..commit` instead, with `-C` and then without: history before `since` is not walked, and a
 *   line older than it is dated at `since` (a boundary, `exact: false`: it is older than the cutoff, whatever its
 *   true date). A file no attempt can blame has its bodies undated (`onUndated`).
 */
export const BODY_BLAME_ARGS_WITHOUT_COPIES: readonly string[] = BODY_BLAME_ARGS.filter((arg) => arg !== '-C');

const UNREADABLE_BLOB = /unable to read [0-9a-f]{40}|bad object [0-9a-f]{40}|[Cc]annot read blob [0-9a-f]{40}/;

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
  options: BlameOptions = {},
): Promise<Map<F, BodyHistory | null>> {
  const histories = new Map<F, BodyHistory | null>();
  const byFile = new Map<string, F[]>();
  for (const fn of functions) {
    const inFile = byFile.get(fn.file);
    if (inFile === undefined) byFile.set(fn.file, [fn]);
    else inFile.push(fn);
  }
  const ranged = options.since === undefined ? commit : `${options.since}..${commit}`;
  const attempts: readonly BlameAttempt[] = [
    { args: BODY_BLAME_ARGS, revision: commit, copies: true, ranged: false },
    ...(options.since === undefined ? [] : [{ args: BODY_BLAME_ARGS, revision: ranged, copies: true, ranged: true }]),
    { args: BODY_BLAME_ARGS_WITHOUT_COPIES, revision: ranged, copies: false, ranged: options.since !== undefined },
  ];
  for (const [file, inFile] of byFile) {
    const spans = new Map(inFile.map((fn) => [fn, solutionSpan(fn)]));
    const ranges = [...spans.values()].filter((span) => span.end >= span.start);
    if (ranges.length === 0) {
      for (const fn of spans.keys()) histories.set(fn, null);
      continue;
    }
    let blamed: { lines: BlameLine[]; attempt: BlameAttempt } | null = null;
    for (const attempt of attempts) {
      const lines = await blameRanges(checkout, attempt.revision, file, ranges, attempt.args).catch(
        (error: unknown) => {
          if (error instanceof Error && UNREADABLE_BLOB.test(error.message)) return null;
          throw error;
        },
      );
      if (lines === null) continue;
      blamed = { lines, attempt };
      break;
    }
    if (blamed === null) {
      // Not one way of blaming it reads only blobs the clone has: its bodies are undated, never counted as changed.
      for (const fn of spans.keys()) histories.set(fn, null);
      options.onUndated?.(file, inFile.length);
      continue;
    }
    const exactAt = new Map<string, boolean>();
    for (const [fn, span] of spans) {
      const history = span.end < span.start ? null : bodyHistory(blamed.lines, span);
      if (history !== null && blamed.attempt.ranged && history.bodyCommit === options.since) {
        histories.set(fn, { ...history, exact: false });
        continue;
      }
      if (history === null || blamed.attempt.copies) {
        histories.set(fn, history);
        continue;
      }
      if (!exactAt.has(history.bodyCommit))
        exactAt.set(history.bodyCommit, await changesNoOtherPythonFile(checkout, history.bodyCommit, file));
      histories.set(fn, { ...history, exact: exactAt.get(history.bodyCommit) === true });
    }
  }
  return histories;
}

/** How blameFunctionBodies may narrow its work where the clone lacks blobs. */
export interface BlameOptions {
  /**
   * A commit before which no body's date matters (the last one before a cutoff): where the whole history cannot be
   * blamed, the range `since..commit` is, and a line older than it is dated at it (boundary).
   */
  readonly since?: string;
  /** Told of a file that could not be blamed at all (its bodies are left undated), with how many functions it holds. */
  readonly onUndated?: (file: string, functions: number) => void;
}

interface BlameAttempt {
  readonly args: readonly string[];
  readonly revision: string;
  /** Whether the blame follows copies from other files (`-C`). */
  readonly copies: boolean;
  /** Whether it walks the range `since..commit` alone (a line older is dated at `since`). */
  readonly ranged: boolean;
}

async function blameRanges(
  checkout: string,
  revision: string,
  file: string,
  ranges: readonly LineSpan[],
  blameArgs: readonly string[],
) {
  const lineArgs = ranges.flatMap((span) => ['-L', `${span.start},${span.end}`]);
  return parseBlamePorcelain(await gitOutput(checkout, [...blameArgs, ...lineArgs, revision, '--', file]));
}

/** Whether `commit` is a root or changed (added, removed or modified) no Python file but `file`. */
async function changesNoOtherPythonFile(checkout: string, commit: string, file: string): Promise<boolean> {
  const parents = await git(checkout, ['rev-list', '--parents', '-n', '1', commit]);
  if (parents.split(' ').length === 1) return true;
  const listed = await git(checkout, [
    'diff-tree',
    '-r',
    '-m',
    '--no-commit-id',
    '--no-renames',
    '--name-only',
    commit,
    '--',
    '*.py',
  ]);
  return listed.split('\n').every((path) => path === '' || path === file);
}
