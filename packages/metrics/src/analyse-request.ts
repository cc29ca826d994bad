import type { Parser } from 'web-tree-sitter';
import type { AnalyseOptions, FileAnalysis } from './analyse-python-file.js';
import { analysePythonFile, measureFileComplexity } from './analyse-python-file.js';

/**
 * What to compute: `full` is every column of the functions table; `complexity` is only what the
 * radon comparison needs (name, `def` line, cyclomatic), so that little crosses between threads.
 */
export type AnalyseMode = 'full' | 'complexity';

export interface AnalyseRequest {
  readonly id: number;
  readonly file: string;
  readonly bytes: Uint8Array;
  readonly mode: AnalyseMode;
}

export interface ComplexityOnly {
  readonly file: string;
  readonly functions: readonly {
    readonly name: string;
    readonly qualname: string;
    readonly defLine: number;
    readonly cyclomatic: number;
  }[];
  readonly issue: FileAnalysis['issue'];
}

export type AnalyseResult = FileAnalysis | ComplexityOnly;

export type AnalyseResponse =
  | { readonly id: number; readonly ok: true; readonly result: AnalyseResult }
  | { readonly id: number; readonly ok: false; readonly message: string };

/**
 * Analyses one file. A failure inside the analysis (a tree deeper than we can walk, a bug) becomes an
 * `analysis-error` issue of that file, so that one file never stops a whole repository; the file is
 * stored with its issue and the rest goes on.
 */
export function analyseOne(parser: Parser, request: AnalyseRequest, options: AnalyseOptions): AnalyseResult {
  try {
    return analyseOneOrThrow(parser, request, options);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      file: request.file,
      functions: [],
      issue: {
        file: request.file,
        kind: 'analysis-error',
        lines: [],
        message: `${request.file}: could not be analysed (${reason}); please report it with the file`,
      },
    };
  }
}

function analyseOneOrThrow(parser: Parser, request: AnalyseRequest, options: AnalyseOptions): AnalyseResult {
  if (request.mode === 'full') return analysePythonFile(parser, request.bytes, request.file, options);
  const measured = measureFileComplexity(parser, request.bytes, request.file, options);
  return {
    file: measured.file,
    issue: measured.issue,
    functions: measured.functions.map(({ record, complexity }) => ({
      name: record.name,
      qualname: record.qualname,
      defLine: record.signatureSpan.start,
      cyclomatic: complexity.cyclomatic,
    })),
  };
}
