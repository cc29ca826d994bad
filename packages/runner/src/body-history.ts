import { isCodeLine, type LineSpan, spanLength } from '@repocod/core';
import type { BlameLine } from './blame-porcelain.js';
import { utcTimestamp } from './utc-date.js';

/**
 * When a function's body (its REPOCOD solution lines, `solutionSpan`) was last written or changed, from git blame at
 * the base commit: the commit and time of the body's newest code line.
 */
export interface BodyHistory {
  /** The commit that wrote the body's newest code line: a task's `body_commit`. */
  readonly bodyCommit: string;
  /** That commit's author time, UTC `YYYY-MM-DDTHH:MM:SSZ`: a task's `body_changed_at`. */
  readonly bodyChangedAt: string;
  /** That commit's committer time, UTC: when the change entered the history (at or after its author time). */
  readonly bodyCommittedAt: string;
  /** How many lines the body has, blank and comment lines included. */
  readonly bodyLines: number;
  /** How many of them were dated: the code lines (see bodyHistory). */
  readonly codeLines: number;
  /** The newest line's commit is a boundary (the root, or a shallow clone's edge): the body may be older still. */
  readonly boundary: boolean;
  /** Where the newest line stood in bodyCommit: another file or line than the function's when git followed a move. */
  readonly sourceFile: string;
  readonly sourceLine: number;
  /**
   * False when the date is only an upper bound, so the body may be older (blame-bodies.ts): the file could be blamed
   * only without following copies from other files (a blob the clone lacks) and the newest line's commit changed
   * other Python files, or only over a range of history and the newest line is older than the range (its boundary).
   */
  readonly exact: boolean;
}

/**
 * The body's last change from the blame of its file (all of it, or the `-L` ranges that hold the span).
 *
 * Which lines date the body: its code lines alone, neither blank nor comment-only (`isCodeLine`, the rule the
 * candidate modes count code lines by). A blank line or a comment added after a cutoff leaves the code a model could
 * have learnt unchanged, so a body whose only newer lines are such lines was not really changed; every line still
 * counts in `bodyLines`. A comment after code on the same line is part of a code line, and dates it.
 *
 * Which time: the author time, when the line was written. It is never later than the committer time, so a body
 * authored after a cutoff was also committed after it, while a change authored before the cutoff and merged or
 * rebased after it is left old: the conservative side when the question is whether a model could have seen the code.
 * Ties (the same author time) go to the newer committer time, then to the first such line.
 *
 * Null when the span holds no code line (a function whose body is its docstring alone): there is no body to date.
 * A span line missing from `lines` is a RangeError: the blame was not of this span.
 */
export function bodyHistory(lines: readonly BlameLine[], span: LineSpan): BodyHistory | null {
  const byLine = new Map(lines.map((blamed) => [blamed.line, blamed]));
  let newest: BlameLine | null = null;
  let codeLines = 0;
  for (let line = span.start; line <= span.end; line++) {
    const blamed = byLine.get(line);
    if (blamed === undefined)
      throw new RangeError(`the blame has no line ${line} of the body ${span.start}..${span.end}`);
    if (!isCodeLine(blamed.text)) continue;
    codeLines += 1;
    if (newest === null || isNewer(blamed, newest)) newest = blamed;
  }
  if (newest === null) return null;
  return {
    bodyCommit: newest.commit,
    bodyChangedAt: utcTimestamp(newest.authorTime * 1000),
    bodyCommittedAt: utcTimestamp(newest.committerTime * 1000),
    bodyLines: Math.max(0, spanLength(span)),
    codeLines,
    boundary: newest.boundary,
    sourceFile: newest.originalFile,
    sourceLine: newest.originalLine,
    exact: true,
  };
}

function isNewer(candidate: BlameLine, than: BlameLine): boolean {
  if (candidate.authorTime !== than.authorTime) return candidate.authorTime > than.authorTime;
  return candidate.committerTime > than.committerTime;
}
