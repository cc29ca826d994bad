import type {
  AnalysedFunction,
  CandidateFilterConfig,
  FileIssue,
  FunctionRecord,
  TestCodePatterns,
} from '@repocod/core';
import { REPOCOD_CANDIDATE_FILTER, isCandidate } from '@repocod/core';
import { parsePythonFile } from '@repocod/python';
import type { Parser } from 'web-tree-sitter';
import type { FunctionComplexity } from './measure-complexity.js';
import { measureComplexity } from './measure-complexity.js';
import type { ComplexitySettings } from './python-syntax.js';
import { RADON_5_1_SETTINGS } from './python-syntax.js';
import { countLines, countTokens } from './token-lengths.js';

export interface AnalyseOptions {
  readonly settings?: ComplexitySettings;
  readonly candidateFilter?: CandidateFilterConfig;
  readonly testCode?: TestCodePatterns;
}

export interface FileAnalysis {
  readonly file: string;
  readonly functions: readonly AnalysedFunction[];
  /** Why the file gave none or only some of its functions; null when it parsed cleanly. */
  readonly issue: FileIssue | null;
}

/** A function with its complexity only: what the radon differential and the benchmark compare. */
export interface MeasuredFunction {
  readonly record: FunctionRecord;
  readonly complexity: FunctionComplexity;
}

export interface FileComplexity {
  readonly file: string;
  readonly functions: readonly MeasuredFunction[];
  readonly issue: FileIssue | null;
}

/** Parses a file once, lists its functions and measures their complexity with escomplex. */
export function measureFileComplexity(
  parser: Parser,
  bytes: Uint8Array,
  file: string,
  options: AnalyseOptions = {},
): FileComplexity {
  const outcome = parsePythonFile(parser, bytes, file, { testCode: options.testCode });
  if (!outcome.ok) return { file, functions: [], issue: outcome.issue };
  const { parsed } = outcome;
  try {
    const complexity = measureComplexity(parsed.tree, parsed.text, options.settings ?? RADON_5_1_SETTINGS);
    const functions: MeasuredFunction[] = [];
    for (const record of parsed.functions) {
      const measured = complexity.get(record.signatureSpan.start);
      if (measured !== undefined) functions.push({ record, complexity: measured });
    }
    return { file, functions, issue: parsed.issue };
  } finally {
    parsed.tree.delete();
  }
}

/** Everything the `functions` table holds about each function of a file. */
export function analysePythonFile(
  parser: Parser,
  bytes: Uint8Array,
  file: string,
  options: AnalyseOptions = {},
): FileAnalysis {
  const measured = measureFileComplexity(parser, bytes, file, options);
  const filter = options.candidateFilter ?? REPOCOD_CANDIDATE_FILTER;
  const functions = measured.functions.map(({ record, complexity }): AnalysedFunction => {
    const { prompt, solution } = record.slices;
    return {
      ...record,
      metrics: {
        cyclomatic: complexity.cyclomatic,
        promptTokens: countTokens(prompt),
        solutionTokens: countTokens(solution),
        promptLines: countLines(prompt),
        solutionLines: countLines(solution),
        halsteadVolume: complexity.halsteadVolume,
        halsteadEffort: complexity.halsteadEffort,
        logicalLines: complexity.logicalLines,
        maintainability: complexity.maintainability,
      },
      isCandidate: isCandidate(record, filter),
    };
  });
  return { file, functions, issue: measured.issue };
}
