import type { CatalogFunction, ExtractSummary, ProgressEvent } from '@repocod/pipeline';
import { RepocodError, spanLength } from '@repocod/core';
import {
  DEFAULT_CATALOG_PATH,
  assertRepositoryFolder,
  loadExtractionConfig,
  openCatalog,
  extractStep,
} from '@repocod/pipeline';
import type { CommandIO } from './io.js';
import type { ParsedArgs } from './parse-args.js';
import { stringOption } from './parse-args.js';

export const EXTRACT_USAGE =
  `usage: repocod extract <repo-path> [--db FILE] [--name NAME] [--config FILE] [--workers ` +
  `N] [--jsonl]

Lists every function and method of a Python repository with its spans, REPOCOD slices, radon
complexity and cl100k lengths into the catalog, and prints a summary. Unchanged files are skipped
on rerun. --jsonl prints one JSON object per function on stdout (summary on stderr).`;

export async function extractCommand(args: ParsedArgs, io: CommandIO): Promise<number> {
  const [path, extra] = args.positionals;
  if (path === undefined || extra !== undefined) throw new RepocodError('usage', EXTRACT_USAGE);
  const dbPath = stringOption(args, 'db') ?? DEFAULT_CATALOG_PATH;
  const configPath = stringOption(args, 'config');
  const workersText = stringOption(args, 'workers');
  const workers = workersText === undefined ? undefined : Number(workersText);
  if (workers !== undefined && (!Number.isInteger(workers) || workers < 0)) {
    throw new RepocodError('usage', `--workers must be a whole number >= 0 (got ${workersText})`);
  }
  const jsonl = args.flags.get('jsonl') === true;
  const config = configPath === undefined ? undefined : loadExtractionConfig(configPath);
  // Checked before the catalog is opened: a mistyped repository path must not leave an empty catalog behind.
  assertRepositoryFolder(path);
  const catalog = await openCatalog(dbPath);
  try {
    const summary = await extractStep(catalog, {
      root: path,
      repository: stringOption(args, 'name'),
      config,
      workers,
      onProgress: io.interactive ? progressPrinter(io) : undefined,
    });
    const report = jsonl ? io.err : io.out;
    report(formatSummary(summary, dbPath));
    if (jsonl) {
      for (const fn of await catalog.functions(summary.repository)) io.out(`${JSON.stringify(jsonlRecord(fn))}\n`);
    }
    const unreadable = summary.problemFiles.filter((issue) => issue.kind === 'unreadable');
    if (unreadable.length > 0) {
      io.err(`error: ${unreadable.length} file(s) could not be read; the others are in the catalog:\n`);
      for (const issue of unreadable) io.err(`  ${issue.message}\n`);
      return 1;
    }
    return 0;
  } finally {
    await catalog.close();
  }
}

function progressPrinter(io: CommandIO): (event: ProgressEvent) => void {
  return (event) => {
    if (event.kind === 'extract-start')
      io.err(`${event.repository}: ${event.files} files, ${event.changed} to extract, ${event.removed} removed\n`);
    else if (event.kind === 'extract-file' && (event.done % 25 === 0 || event.done === event.total)) {
      io.err(`\r  parsed ${event.done}/${event.total}${event.done === event.total ? '\n' : ''}`);
    }
  };
}

export function formatSummary(summary: ExtractSummary, dbPath: string): string {
  const lines = [
    `extracted ${summary.repository} (${summary.root}) into ${dbPath}`,
    `  files       ${summary.files} (${summary.extractedFiles} parsed, ${summary.unchangedFiles} unchanged, ` +
      `${summary.removedFiles} removed)`,
    `  functions   ${summary.functions} (${summary.candidates} candidates)`,
    `  complexity  mean ${summary.meanComplexity.toFixed(2)}, max ${summary.maxComplexity}`,
    `  problems    ${summary.problemFiles.length === 0 ? 'none' : `${summary.problemFiles.length} file(s)`}`,
    ...summary.problemFiles.map((issue) => `    ${issue.message}`),
  ];
  return `${lines.join('\n')}\n`;
}

/** The `--jsonl` record: the issue's required fields first, then the rest of the row. */
export function jsonlRecord(fn: CatalogFunction): Record<string, unknown> {
  return {
    file: fn.file,
    qualname: fn.qualname,
    start_line: fn.signatureSpan.start,
    end_line: fn.definitionSpan.end,
    docstring_lines: fn.docstringSpan === null ? 0 : spanLength(fn.docstringSpan),
    cc: fn.metrics.cyclomatic,
    prompt_tokens: fn.metrics.promptTokens,
    solution_tokens: fn.metrics.solutionTokens,
    prompt_lines: fn.metrics.promptLines,
    solution_lines: fn.metrics.solutionLines,
    is_candidate: fn.isCandidate,
    kind: fn.kind,
    is_async: fn.isAsync,
    nested: fn.nested,
    class_name: fn.className,
    decorators: fn.decorators,
    is_test_code: fn.isTestCode,
    decorated_start_line: fn.definitionSpan.start,
    signature_end_line: fn.signatureSpan.end,
    docstring_start_line: fn.docstringSpan?.start ?? null,
    docstring_end_line: fn.docstringSpan?.end ?? null,
    halstead_volume: fn.metrics.halsteadVolume,
    maintainability: fn.metrics.maintainability,
    function_id: fn.functionId,
  };
}
