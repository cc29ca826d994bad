import { PrePatchShapeError, removedBody } from '@repocod/core';
import type { ReferenceRow } from './reference-row.js';
import { shortDifference, type TextAgreement, textAgreement } from './text-difference.js';

/** What resolution needs of one extracted function (the catalog's functions at the manifest's commit). */
export interface ResolvableFunction {
  readonly file: string;
  readonly qualname: string;
  /** Passes the candidate filter (a docstring of more than 10 lines): a function that fails it is marked. */
  readonly isCandidate: boolean;
  /** The definition without decorators, its prompt (signature and docstring) and solution (the rest). */
  readonly full: string;
  readonly prompt: string;
  readonly solution: string;
  /** 1-based lines: the definition's first (decorators included) and last, and the solution's first. */
  readonly definitionStart: number;
  readonly definitionEnd: number;
  readonly solutionStart: number;
  /** Whether a mining of the catalog found relevant tests for it; null when it was never mined. */
  readonly hasRelevantTests: boolean | null;
}

export interface FunctionKey {
  readonly file: string;
  readonly qualname: string;
}

/** Why a row resolved to no function (or to several). */
export const UNRESOLVED_REASONS = [
  'unknown-repository',
  'not-extracted',
  'file-absent',
  'no-such-function',
  'ambiguous',
  'text-differs',
  'pre-patch-unreadable',
] as const;
export type UnresolvedReason = (typeof UNRESOLVED_REASONS)[number];

export type RowResolution =
  | {
      readonly status: 'resolved';
      readonly function: FunctionKey;
      /** What found it: the name (with the file where the row gives one), or the pre patch's removed range. */
      readonly by: 'name' | 'pre-patch';
      /** How the row's text (full_function, prompt, or the pre patch's removed lines) agrees with ours. */
      readonly text: TextAgreement | 'not-given';
      readonly textField: string | null;
      /** The function fails our candidate filter: REPOCOD kept it, our docstring rule would not have. */
      readonly outsideCandidates: boolean;
      /**
       * How many functions the name matched in its scope (1 for a seed row): above 1, the text, the
       * evaluator's first-in-file rule or the narrowing (notes say which) chose among them.
       */
      readonly nameMatches: number;
      readonly notes: readonly string[];
    }
  | {
      readonly status: 'unresolved';
      readonly reason: UnresolvedReason;
      readonly message: string;
      /** The functions the name matched, when it matched several or the text told them apart from none. */
      readonly matches: readonly FunctionKey[];
      /** A short diff of our text against the row's, for `text-differs`. */
      readonly difference: string | null;
      readonly notes: readonly string[];
    };

export interface ResolutionContext {
  /** The manifest's name of the row's repository, null when the manifest has none of that name. */
  readonly repository: string | null;
  /** The repository's extracted functions, null when the catalog has no extraction of it. */
  readonly functions: readonly ResolvableFunction[] | null;
  /** The manifest's base commit, to name a row whose own base_commit differs. */
  readonly baseCommit: string | null;
  /** The manifest's names, for the message of an unknown repository. */
  readonly knownRepositories?: readonly string[];
}

/**
 * Resolves one reference row to one function of our extraction, by the rules stated once here:
 *
 * - Seed rows by their code pre patch: its file, and the function whose solution (after the docstring
 *   through the last line) is exactly the range the patch removes; the removed lines are its text.
 * - REPOCOD and names rows by `function_name`, a dotted suffix of `file.Class.function` (`<locals>`
 *   left out), among the functions of `target_module_path` when the row gives it (a path that is not a
 *   file of the extraction matches by suffix, and a note says so), else of the whole repository.
 * - The row's text decides and confirms: `full_function` against our definition, else `prompt` against
 *   our prompt, byte for byte or once whitespace is normalised (said so). A name that matches functions
 *   none of whose text agrees is `text-differs`, with a short diff; no name match whose text equals
 *   another function's is named as possibly renamed.
 * - Without a text, several name matches in one file resolve as REPOCOD's evaluator would (the first in
 *   the file; a note says so); across a repository they narrow to our candidates, then to those mining
 *   found relevant tests for (REPOCOD's tasks all have some); more than one left is `ambiguous`.
 */
export function resolveReferenceRow(row: ReferenceRow, context: ResolutionContext): RowResolution {
  const notes: string[] = [];
  if (row.baseCommit !== null && context.baseCommit !== null && !sameCommit(row.baseCommit, context.baseCommit))
    notes.push(`base_commit ${row.baseCommit} is not the manifest's ${context.baseCommit}`);
  if (context.repository === null) {
    const known = context.knownRepositories ?? [];
    return unresolved(
      'unknown-repository',
      `repository ${JSON.stringify(row.repository)} is not in the manifest${
        known.length > 0 ? ` (it has ${known.join(', ')})` : ''
      }`,
      notes,
    );
  }
  if (context.functions === null || context.functions.length === 0)
    return unresolved(
      'not-extracted',
      `the catalog has no extraction of ${context.repository}: run repocod extract ${context.repository}`,
      notes,
    );
  if (row.preCode !== null) return byPrePatch(row.preCode, context.functions, notes);
  return byName(row, context.functions, notes);
}

function byPrePatch(preCode: string, functions: readonly ResolvableFunction[], notes: string[]): RowResolution {
  let removal: ReturnType<typeof removedBody>;
  try {
    removal = removedBody(preCode);
  } catch (error) {
    if (!(error instanceof PrePatchShapeError)) throw error;
    return unresolved('pre-patch-unreadable', `pre_patches.code: ${error.message}`, notes);
  }
  const inFile = functions.filter((fn) => fn.file === removal.file);
  if (inFile.length === 0)
    return unresolved(
      'file-absent',
      `pre_patches.code edits ${removal.file}, which is not a Python file at the commit`,
      notes,
    );
  const removedText = removedLines(preCode);
  const exact = inFile.find((fn) => fn.solutionStart === removal.start && fn.definitionEnd === removal.end);
  if (exact !== undefined) {
    const text = textAgreement(exact.solution, removedText);
    if (text === 'differs')
      return {
        ...unresolved(
          'text-differs',
          `pre_patches.code removes lines ${removal.start}-${removal.end} of ${removal.file}, the solution of ` +
            `${exact.qualname}, but not its text`,
          notes,
          [key(exact)],
        ),
        difference: shortDifference(exact.solution, removedText),
      };
    return resolved(exact, 'pre-patch', text, 'pre_patches.code', notes, 1);
  }
  const around = inFile
    .filter((fn) => fn.definitionStart <= removal.start && removal.end <= fn.definitionEnd)
    .sort((a, b) => b.definitionStart - a.definitionStart)[0];
  const message =
    around === undefined
      ? `pre_patches.code removes lines ${removal.start}-${removal.end} of ${removal.file}, inside no function`
      : `pre_patches.code removes lines ${removal.start}-${removal.end} of ${removal.file}; the solution of ` +
        `${around.qualname} is lines ${around.solutionStart}-${around.definitionEnd}`;
  return unresolved('no-such-function', message, notes, around === undefined ? [] : [key(around)]);
}

function byName(row: ReferenceRow, functions: readonly ResolvableFunction[], notes: string[]): RowResolution {
  const name = row.functionName;
  if (name === null) return unresolved('no-such-function', 'the row has no function_name', notes);
  let scope = functions;
  if (row.file !== null) {
    const file = matchFile(row.file, functions);
    if (file === null)
      return unresolved('file-absent', `target_module_path ${row.file} is not a Python file at the commit`, notes);
    if (file !== row.file) notes.push(`target_module_path ${row.file} taken as ${file}`);
    scope = functions.filter((fn) => fn.file === file);
  }
  const named = scope.filter((fn) => endsWithName(dottedName(fn), name)).sort(inFileOrder);
  const given = textOf(row);
  if (given !== null) return byText(name, row.file, named, scope, given, notes);
  if (named.length === 0) return unresolved('no-such-function', noSuchFunction(name, row.file), notes);
  if (named.length === 1) return resolved(named[0] as ResolvableFunction, 'name', 'not-given', null, notes, 1);
  if (row.file !== null) {
    notes.push(
      `${named.length} functions of ${row.file} are named ${name}; the first, as REPOCOD's evaluator takes it`,
    );
    return resolved(named[0] as ResolvableFunction, 'name', 'not-given', null, notes, named.length);
  }
  const narrowed = narrow(named);
  if (narrowed.kept.length === 1) {
    notes.push(`${named.length} functions are named ${name}; ${narrowed.by}`);
    return resolved(narrowed.kept[0] as ResolvableFunction, 'name', 'not-given', null, notes, named.length);
  }
  return unresolved(
    'ambiguous',
    `${named.length} functions are named ${name} and the row has no file or text to tell them apart${
      narrowed.by === '' ? '' : ` (${narrowed.by}: ${narrowed.kept.length} left)`
    }`,
    notes,
    narrowed.kept.map(key),
  );
}

function byText(
  name: string,
  file: string | null,
  named: readonly ResolvableFunction[],
  scope: readonly ResolvableFunction[],
  given: { readonly field: string; readonly text: string },
  notes: string[],
): RowResolution {
  const ours = (fn: ResolvableFunction): string => (given.field === 'full_function' ? fn.full : fn.prompt);
  for (const level of ['exact', 'whitespace'] as const) {
    const agreeing = named.filter((fn) => textAgreement(ours(fn), given.text) === level);
    if (agreeing.length > 1)
      notes.push(`${agreeing.length} functions named ${name} have this ${given.field}; the first in the file`);
    const first = agreeing[0];
    if (first !== undefined) return resolved(first, 'name', level, given.field, notes, named.length);
  }
  const first = named[0];
  if (first === undefined) {
    const renamed = scope.find((fn) => textAgreement(ours(fn), given.text) !== 'differs');
    const message = `${noSuchFunction(name, file)}${
      renamed === undefined ? '' : `; ${renamed.file}::${renamed.qualname} has its ${given.field} (renamed?)`
    }`;
    return unresolved('no-such-function', message, notes, renamed === undefined ? [] : [key(renamed)]);
  }
  return {
    ...unresolved(
      'text-differs',
      `${named.length === 1 ? first.qualname : `none of the ${named.length} functions named ${name}`} in ` +
        `${first.file} ` +
        `has the row's ${given.field}`,
      notes,
      named.map(key),
    ),
    difference: shortDifference(ours(first), given.text),
  };
}

function narrow(named: readonly ResolvableFunction[]): { kept: readonly ResolvableFunction[]; by: string } {
  const candidates = named.filter((fn) => fn.isCandidate);
  if (candidates.length === 0) return { kept: named, by: '' };
  const tested = candidates.filter((fn) => fn.hasRelevantTests === true);
  if (tested.length > 0 && tested.length < candidates.length)
    return { kept: tested, by: 'kept the candidates mining found relevant tests for' };
  return { kept: candidates, by: candidates.length < named.length ? 'kept our candidates (docstring rule)' : '' };
}

function textOf(row: ReferenceRow): { readonly field: string; readonly text: string } | null {
  if (row.fullFunction !== null && row.fullFunction.trim() !== '')
    return { field: 'full_function', text: row.fullFunction };
  if (row.prompt !== null && row.prompt.trim() !== '') return { field: 'prompt', text: row.prompt };
  return null;
}

/** A file of the extraction: the path itself, else the one file whose path ends with it or that it ends with. */
function matchFile(path: string, functions: readonly ResolvableFunction[]): string | null {
  const wanted = path.replace(/^\.\//, '');
  const files = [...new Set(functions.map((fn) => fn.file))];
  if (files.includes(wanted)) return wanted;
  const bySuffix = files.filter((file) => wanted.endsWith(`/${file}`) || file.endsWith(`/${wanted}`));
  return bySuffix.length === 1 ? (bySuffix[0] as string) : null;
}

/** `pkg/sub/mod.py` + `Class.f` → `pkg.sub.mod.Class.f` (`<locals>` left out, as Python's trace prints names). */
export function dottedName(fn: FunctionKey): string {
  const module = fn.file.replace(/\.py$/, '').split('/').join('.');
  const qualname = fn.qualname
    .split('.')
    .filter((part) => part !== '<locals>')
    .join('.');
  return `${module}.${qualname}`;
}

function endsWithName(dotted: string, name: string): boolean {
  return dotted === name || dotted.endsWith(`.${name}`);
}

function inFileOrder(a: ResolvableFunction, b: ResolvableFunction): number {
  return a.file === b.file ? a.definitionStart - b.definitionStart : a.file < b.file ? -1 : 1;
}

function noSuchFunction(name: string, file: string | null): string {
  return `no function ${file === null ? 'of the repository' : `of ${file}`} is named ${name}`;
}

/** The lines a patch removes, without their markers, as the text they had in the file. */
function removedLines(patch: string): string {
  return patch
    .split('\n')
    .filter((line) => line.startsWith('-') && !line.startsWith('--- '))
    .map((line) => `${line.slice(1)}\n`)
    .join('');
}

function sameCommit(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.length >= 7 && long.toLowerCase().startsWith(short.toLowerCase());
}

function key(fn: ResolvableFunction): FunctionKey {
  return { file: fn.file, qualname: fn.qualname };
}

function resolved(
  fn: ResolvableFunction,
  by: 'name' | 'pre-patch',
  text: TextAgreement | 'not-given',
  textField: string | null,
  notes: readonly string[],
  nameMatches: number,
): RowResolution {
  const outsideCandidates = !fn.isCandidate;
  return { status: 'resolved', function: key(fn), by, text, textField, outsideCandidates, nameMatches, notes };
}

function unresolved(
  reason: UnresolvedReason,
  message: string,
  notes: readonly string[],
  matches: readonly FunctionKey[] = [],
): Extract<RowResolution, { status: 'unresolved' }> {
  return { status: 'unresolved', reason, message, matches, difference: null, notes };
}
