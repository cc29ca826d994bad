import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { loadPythonParser } from '@repocod/python';
import type { AnalyseOptions, FileAnalysis } from './analyse-python-file.js';
import type { AnalyseMode, AnalyseRequest, AnalyseResponse, AnalyseResult, ComplexityOnly } from './analyse-request.js';
import { analyseOne } from './analyse-request.js';

export interface SourceFile {
  /** Repository-relative path with `/` separators. */
  readonly file: string;
  readonly bytes: Uint8Array;
}

export interface ParallelOptions extends AnalyseOptions {
  /** Worker threads; default: one per core. 0 analyses in the calling thread. */
  readonly workers?: number;
}

/**
 * Below this many bytes a worker pool costs more (thread start, wasm load) than it saves, so the
 * files are analysed in the calling thread.
 */
const PARALLEL_THRESHOLD_BYTES = 2_000_000;

// Resolves from src/ (tests) and dist/ alike: both sit one level below the package root.
const WORKER_URL = new URL('../dist/analyse-worker.js', import.meta.url);

export function analyseFiles(
  files: readonly SourceFile[],
  options: ParallelOptions & { mode?: 'full' },
): AsyncGenerator<FileAnalysis>;
export function analyseFiles(
  files: readonly SourceFile[],
  options: ParallelOptions & { mode: 'complexity' },
): AsyncGenerator<ComplexityOnly>;
/**
 * Analyses many files, in parallel over worker threads when it pays. Results come in completion
 * order, each as soon as it is ready, so the caller can store them while the rest are parsed.
 */
export async function* analyseFiles(
  files: readonly SourceFile[],
  options: ParallelOptions & { mode?: AnalyseMode },
): AsyncGenerator<AnalyseResult> {
  const mode = options.mode ?? 'full';
  const { workers: requested, mode: _mode, ...analyseOptions } = options;
  const totalBytes = files.reduce((sum, source) => sum + source.bytes.byteLength, 0);
  const workers = Math.min(requested ?? availableParallelism(), files.length);
  if (workers <= 0 || (requested === undefined && totalBytes < PARALLEL_THRESHOLD_BYTES)) {
    const parser = await loadPythonParser();
    for (const [id, source] of files.entries()) yield analyseOne(parser, { id, ...source, mode }, analyseOptions);
    return;
  }
  yield* analyseInPool(files, workers, mode, analyseOptions);
}

async function* analyseInPool(
  files: readonly SourceFile[],
  size: number,
  mode: AnalyseMode,
  options: AnalyseOptions,
): AsyncGenerator<AnalyseResult> {
  const ready: AnalyseResult[] = [];
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  let next = 0;
  let done = 0;
  const notify = (): void => {
    wake?.();
    wake = undefined;
  };
  // Largest files first, so that no worker is left parsing one big file while the others idle.
  const order = [...files.keys()].sort((a, b) => (files[b]?.bytes.byteLength ?? 0) - (files[a]?.bytes.byteLength ?? 0));
  const pool = Array.from({ length: size }, () => new Worker(WORKER_URL, { workerData: options }));
  const feed = (worker: Worker): void => {
    const id = order[next++];
    const source = id === undefined ? undefined : files[id];
    if (id === undefined || source === undefined) return;
    const request: AnalyseRequest = { id, file: source.file, bytes: source.bytes, mode };
    worker.postMessage(request);
  };
  for (const worker of pool) {
    worker.on('message', (message: AnalyseResponse | { ready: true }) => {
      if ('ready' in message) return feed(worker);
      done++;
      if (message.ok) ready.push(message.result);
      else failure ??= new Error(`analysing ${files[message.id]?.file ?? '?'} failed: ${message.message}`);
      feed(worker);
      notify();
    });
    worker.on('error', (error) => {
      failure ??= error;
      notify();
    });
    // A worker that dies without an error event (killed, out of memory) would leave the run waiting.
    worker.on('exit', (code) => {
      if (done < files.length)
        failure ??= new Error(`an analysis worker stopped (exit code ${code}) before the files were done`);
      notify();
    });
  }
  try {
    while (done < files.length && failure === undefined) {
      if (ready.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      while (ready.length > 0) yield ready.shift() as AnalyseResult;
    }
    while (ready.length > 0) yield ready.shift() as AnalyseResult;
    if (failure !== undefined) throw failure;
  } finally {
    await Promise.all(pool.map((worker) => worker.terminate()));
  }
}
