import { basename, resolve } from 'node:path';
import type { Catalog, FileExtraction } from '@repocod/catalog';
import type { FileIssue } from '@repocod/core';
import { analyseFiles } from '@repocod/metrics';
import { listPythonFiles } from '@repocod/python';
import type { ExtractionConfig } from './extractor-fingerprint.js';
import { DEFAULT_EXTRACTION_CONFIG, extractorFingerprint } from './extractor-fingerprint.js';
import type { ProgressListener } from './extract-progress.js';
import { checkOneCommitPerCatalog } from './one-commit-per-catalog.js';
import { readSources } from './read-sources.js';

export interface ExtractOptions {
  /** The repository checkout to extract. */
  readonly root: string;
  /** Name in the catalog; default: the folder's name. */
  readonly repository?: string;
  readonly config?: ExtractionConfig;
  /** Worker threads; default: one per core when the tree is large enough to pay for them. */
  readonly workers?: number;
  readonly onProgress?: ProgressListener;
  /**
   * The commit the checkout is at, when it is one: the step then refuses to replace a repository whose tasks a
   * stored selection picks at another commit (checkOneCommitPerCatalog), before changing anything.
   */
  readonly baseCommit?: string;
}

export interface ExtractSummary {
  readonly repository: string;
  readonly root: string;
  readonly files: number;
  /** Files parsed in this run (new or changed); the others were unchanged and kept from the catalog. */
  readonly extractedFiles: number;
  readonly unchangedFiles: number;
  readonly removedFiles: number;
  readonly functions: number;
  readonly candidates: number;
  readonly meanComplexity: number;
  readonly maxComplexity: number;
  /** Files that did not parse cleanly or were skipped, with why (from the catalog: all runs). */
  readonly problemFiles: readonly FileIssue[];
}

/** Store this many files per transaction: a killed run loses at most one batch of work. */
const STORE_BATCH = 100;

/**
 * The extract stage: every function of the repository with its spans, slices, complexity and lengths
 * into the catalog. Files whose bytes and extractor fingerprint are unchanged since the last run are
 * skipped; files gone from the tree are removed from the catalog.
 */
export async function extractStep(catalog: Catalog, options: ExtractOptions): Promise<ExtractSummary> {
  const root = resolve(options.root);
  const repository = options.repository ?? basename(root);
  const config = options.config ?? DEFAULT_EXTRACTION_CONFIG;
  const fingerprint = extractorFingerprint(config);
  const files = listPythonFiles(root);
  const { sources, unreadable } = readSources(root, files);

  if (options.baseCommit !== undefined) await checkOneCommitPerCatalog(catalog, repository, options.baseCommit);
  await catalog.upsertRepository(repository, root);
  const known = await catalog.knownFiles(repository);
  const changed = sources.filter((source) => {
    const previous = known.get(source.file);
    return (
      previous === undefined ||
      previous.contentHash !== source.contentHash ||
      previous.extractorFingerprint !== fingerprint
    );
  });
  const present = new Set(files);
  const removed = [...known.keys()].filter((file) => !present.has(file));
  options.onProgress?.({
    kind: 'extract-start',
    repository,
    files: files.length,
    changed: changed.length,
    removed: removed.length,
  });

  if (removed.length > 0) await catalog.removeFiles(repository, removed);
  const hashOf = new Map(changed.map((source) => [source.file, source.contentHash]));
  let pending: FileExtraction[] = [
    ...unreadable.map(
      (issue): FileExtraction => ({
        file: issue.file,
        contentHash: '',
        extractorFingerprint: fingerprint,
        status: issue.kind,
        issue,
        functions: [],
      }),
    ),
  ];
  let done = 0;
  let stored = 0;
  const flush = async (): Promise<void> => {
    if (pending.length === 0) return;
    await catalog.replaceFiles(repository, pending);
    stored += pending.length;
    pending = [];
    options.onProgress?.({ kind: 'extract-stored', stored, total: changed.length + unreadable.length });
  };
  for (const issue of unreadable) options.onProgress?.({ kind: 'extract-issue', issue });
  const analyses = analyseFiles(changed, {
    workers: options.workers,
    settings: config.settings,
    candidateFilter: config.candidateFilter,
    testCode: config.testCode,
  });
  for await (const analysis of analyses) {
    done++;
    options.onProgress?.({
      kind: 'extract-file',
      done,
      total: changed.length,
      file: analysis.file,
      functions: analysis.functions.length,
    });
    if (analysis.issue !== null) options.onProgress?.({ kind: 'extract-issue', issue: analysis.issue });
    pending.push({
      file: analysis.file,
      contentHash: hashOf.get(analysis.file) ?? '',
      extractorFingerprint: fingerprint,
      status: analysis.issue?.kind ?? 'ok',
      issue: analysis.issue,
      functions: analysis.functions,
    });
    if (pending.length >= STORE_BATCH) await flush();
  }
  await flush();
  return summarise(catalog, repository, root, {
    files: files.length,
    extractedFiles: changed.length,
    unchangedFiles: sources.length - changed.length,
    removedFiles: removed.length,
  });
}

async function summarise(
  catalog: Catalog,
  repository: string,
  root: string,
  counts: Pick<ExtractSummary, 'files' | 'extractedFiles' | 'unchangedFiles' | 'removedFiles'>,
): Promise<ExtractSummary> {
  const stats = await catalog.functionStats(repository);
  const problemFiles = (await catalog.files(repository)).flatMap((file) => (file.issue === null ? [] : [file.issue]));
  return {
    repository,
    root,
    ...counts,
    ...stats,
    problemFiles,
  };
}
