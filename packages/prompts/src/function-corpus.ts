import type { FunctionRecord } from '@repocod/core';
import { PromptInputError } from './prompt-input-error.js';

/**
 * A function of a repository as retrieval gives it to a model: where it is (at the base commit) and its whole text,
 * from its first decorator through its body's last line.
 */
export interface CorpusFunction {
  readonly file: string;
  readonly qualname: string;
  /** Its `def` line, and its first and last lines (the first decorator's through the body's end), 1-based. */
  readonly defLine: number;
  readonly start: number;
  readonly end: number;
  readonly text: string;
  readonly isTestCode: boolean;
}

/** The functions of one file at the base commit (`lines` keeps each line's ending, as the parser read it). */
export function corpusFunctions(functions: readonly FunctionRecord[], lines: readonly string[]): CorpusFunction[] {
  return functions.map((fn) => ({
    file: fn.file,
    qualname: fn.qualname,
    defLine: fn.signatureSpan.start,
    start: fn.definitionSpan.start,
    end: fn.definitionSpan.end,
    text: lines
      .slice(fn.definitionSpan.start - 1, fn.definitionSpan.end)
      .join('')
      .trimEnd(),
    isTestCode: fn.isTestCode,
  }));
}

/** The task a corpus is made for: its file, its `def` line and the lines its pre patch removes (its body). */
export interface CorpusTarget {
  readonly file: string;
  readonly defLine: number;
  readonly bodyStart: number;
  readonly bodyEnd: number;
}

/** Why a function of the repository is not in a task's corpus. */
export type LeftOutReason = 'the target' | 'inside the solution' | 'carries the solution' | 'removed with the tests';

export interface LeftOutFunction {
  readonly file: string;
  readonly qualname: string;
  readonly defLine: number;
  readonly reason: LeftOutReason;
}

export interface TaskCorpus {
  readonly functions: readonly CorpusFunction[];
  readonly leftOut: readonly LeftOutFunction[];
}

/**
 * A task's retrieval corpus: every function of the repository in the task's pre state (its body removed, its tests
 * removed), so that no entry holds the solution or a test it is checked with. The rules, in order:
 * - the files the task's test patch changes (`testFiles`: their functions as the pre state has them) replace the
 *   base commit's; a function of theirs that the pre state no longer has was removed with the tests, and is left out;
 * - the target is left out: with its body removed it is the query itself;
 * - a function defined inside the removed body is part of the solution, and is left out;
 * - a function enclosing the target keeps its text without the removed lines, as the pre state has it;
 * - any other function whose text holds the whole solution (the same lines, indentation and blank lines aside: a
 *   copy elsewhere in the repository) is left out, so that no prompt carries its own solution.
 * Every other function is kept as it is at the base commit, with its base line numbers (a changed test file's as
 * the pre state numbers them).
 */
export function taskCorpus(
  repository: readonly CorpusFunction[],
  target: CorpusTarget,
  testFiles: ReadonlyMap<string, readonly CorpusFunction[]> = new Map(),
): TaskCorpus {
  if (testFiles.has(target.file))
    throw new PromptInputError(
      "the task's test patch changes the target's own file, which a corpus cannot hold",
      target.file,
    );
  const targetFunction = repository.find((fn) => fn.file === target.file && fn.defLine === target.defLine);
  if (targetFunction === undefined)
    throw new PromptInputError('no function of the corpus has its def on that line', target.file, target.defLine);
  const solution = normalizedLines(
    linesOf(targetFunction)
      .slice(target.bodyStart - targetFunction.start, target.bodyEnd - targetFunction.start + 1)
      .join(''),
  );
  const functions: CorpusFunction[] = [];
  const leftOut: LeftOutFunction[] = [];
  const leave = (fn: CorpusFunction, reason: LeftOutReason): void => {
    leftOut.push({ file: fn.file, qualname: fn.qualname, defLine: fn.defLine, reason });
  };
  const kept = new Map([...testFiles].map(([file, functions]) => [file, new Set(functions.map((fn) => fn.qualname))]));
  const preState = [...repository.filter((fn) => !testFiles.has(fn.file)), ...[...testFiles.values()].flat()];
  for (const fn of repository) {
    if (kept.get(fn.file)?.has(fn.qualname) === false) leave(fn, 'removed with the tests');
  }
  for (const fn of preState) {
    const sameFile = fn.file === target.file;
    if (fn === targetFunction) leave(fn, 'the target');
    else if (sameFile && fn.start >= target.bodyStart && fn.end <= target.bodyEnd) leave(fn, 'inside the solution');
    else {
      const given = sameFile && fn.start < target.bodyStart && fn.end >= target.bodyEnd ? withoutBody(fn, target) : fn;
      if (solution.length > 0 && normalizedCode(given).includes(solution)) leave(fn, 'carries the solution');
      else functions.push(given);
    }
  }
  return { functions, leftOut };
}

function linesOf(fn: CorpusFunction): string[] {
  return fn.text.split(/(?<=\n)/);
}

/** An enclosing function's text without the target's body, as the pre state has it. */
function withoutBody(fn: CorpusFunction, target: CorpusTarget): CorpusFunction {
  const lines = linesOf(fn);
  const kept = [...lines.slice(0, target.bodyStart - fn.start), ...lines.slice(target.bodyEnd - fn.start + 1)];
  return { ...fn, text: kept.join('').trimEnd() };
}

const normalized = new WeakMap<CorpusFunction, string>();

/** A function's code as whole lines are compared (normalizedLines), worked out once per function. */
function normalizedCode(fn: CorpusFunction): string {
  let code = normalized.get(fn);
  if (code === undefined) {
    code = normalizedLines(fn.text);
    normalized.set(fn, code);
  }
  return code;
}

/**
 * Code compared as whole lines, indentation and blank lines aside: each line trimmed, the blank ones dropped, and
 * each line ended, so that one text holds another only line for line (`return x` is not in `return xs`).
 */
function normalizedLines(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .map((line) => `\n${line}\n`)
    .join('');
}
