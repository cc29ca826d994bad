import { isCodeLine } from './code-line.js';
import { RepocodError } from './errors.js';
import type { FunctionRecord } from './function-record.js';

/**
 * Readings of REPOCOD's target rule ("functions … invoked by the developer-provided test cases … with
 * more than ten lines of docstrings and at least two lines of function body"), each a restriction on
 * top of the candidate filter (the docstring rule, which stays the extraction's). docs/fidelity.md holds
 * what each reading gives on the eleven repositories beside REPOCOD's counts, and why `repocod` is the
 * reading it is.
 */
export const CANDIDATE_MODE_NAMES = ['docstring', 'docstring-code2', 'called', 'called-code2'] as const;
export type CandidateModeName = (typeof CANDIDATE_MODE_NAMES)[number];

export interface CandidateMode {
  readonly name: CandidateModeName;
  /** Only functions a test body names (see namedByTests); needs the repository's test references. */
  readonly namedByTests: boolean;
  /** At least this many code lines after the docstring (not blank, not only a comment). */
  readonly minCodeLines: number;
  readonly summary: string;
}

export const CANDIDATE_MODES: Readonly<Record<CandidateModeName, CandidateMode>> = {
  docstring: {
    name: 'docstring',
    namedByTests: false,
    minCodeLines: 0,
    summary: 'a docstring literal of more than 10 lines (the candidate filter alone)',
  },
  'docstring-code2': {
    name: 'docstring-code2',
    namedByTests: false,
    minCodeLines: 2,
    summary: 'the docstring rule and at least 2 code lines after the docstring',
  },
  called: {
    name: 'called',
    namedByTests: true,
    minCodeLines: 0,
    summary: 'the docstring rule and named by a test function (called; a class for __init__, read for a property)',
  },
  'called-code2': {
    name: 'called-code2',
    namedByTests: true,
    minCodeLines: 2,
    summary: 'called, and at least 2 code lines after the docstring',
  },
};

/**
 * `--candidates repocod`: the reading adopted as REPOCOD's. It is the docstring rule: every reading
 * that narrows it drops tasks REPOCOD published (a one-line body such as datasets' `Features.copy`,
 * a property no test calls such as flask's `App.logger`), and none comes within 10% of REPOCOD's
 * counts on every repository (docs/fidelity.md has the figures).
 */
export const REPOCOD_CANDIDATE_MODE: CandidateModeName = 'docstring';

/** The names a repository's test functions call and the attributes they read (packages/python). */
export interface TestNames {
  readonly calls: ReadonlySet<string>;
  readonly attributes: ReadonlySet<string>;
}

/** Reads `--candidates`: a mode's name, or `repocod`; names the choices otherwise. */
export function parseCandidateMode(value: string, source = '--candidates'): CandidateMode {
  if (value === 'repocod') return CANDIDATE_MODES[REPOCOD_CANDIDATE_MODE];
  if ((CANDIDATE_MODE_NAMES as readonly string[]).includes(value)) return CANDIDATE_MODES[value as CandidateModeName];
  throw new RepocodError(
    'usage',
    `${source}: unknown candidate mode "${value}" (known: repocod, ${CANDIDATE_MODE_NAMES.join(', ')})`,
  );
}

/**
 * Whether a function that passes the candidate filter is a candidate under `mode`. `tests` is needed
 * only by modes that ask for a test's name (CandidateMode.namedByTests).
 */
export function inCandidateMode(fn: FunctionRecord, mode: CandidateMode, tests?: TestNames): boolean {
  if (codeLinesAfterDocstring(fn) < mode.minCodeLines) return false;
  if (!mode.namedByTests) return true;
  if (tests === undefined) throw new Error(`candidate mode ${mode.name} needs the test functions' names`);
  return namedByTests(fn, tests);
}

/**
 * A static reading of "invoked by a test": `f(…)` or `obj.f(…)` in a test body names f; `Cls(…)` names
 * `Cls.__init__` (the call runs it); a property is named when a test reads `obj.prop`.
 */
export function namedByTests(fn: FunctionRecord, tests: TestNames): boolean {
  if (fn.kind === 'property') return tests.attributes.has(fn.name);
  if (fn.name === '__init__') {
    const className = fn.className?.split('.').at(-1);
    return className !== undefined && tests.calls.has(className);
  }
  return tests.calls.has(fn.name);
}

/** Lines of the solution (the body after the docstring) that hold code: not blank, not only a comment. */
export function codeLinesAfterDocstring(fn: FunctionRecord): number {
  return fn.slices.solution.split('\n').filter(isCodeLine).length;
}
