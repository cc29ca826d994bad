import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Catalog, openCatalog } from '@repocod/catalog';
import { REPOCOD_CANDIDATE_FILTER, isRepocodError } from '@repocod/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ExtractOptions, type ExtractSummary, extractStep } from './extract.js';
import { DEFAULT_EXTRACTION_CONFIG, type ExtractionConfig, extractorFingerprint } from './extractor-fingerprint.js';
import type { ProgressEvent } from './extract-progress.js';
import { DEMO_ROOT, copyDemo, makeTempDir } from '../testing/test-support.js';

/**
 * The demo's figures, pinned: they are what `repocod extract datasets/demo` prints
 * (19 files, 278 functions, 52 candidates, mean complexity 2.55, max 13, no problems).
 */
const DEMO = {
  files: 19,
  libraryFiles: 9,
  functions: 278,
  candidates: 52,
  meanComplexity: '2.55',
  maxComplexity: 13,
} as const;

/** With a docstring of more than 20 lines required instead of more than 10. */
const DEMO_CANDIDATES_OVER_20_LINES = 38;

let dir: string;
let cleanup: () => void;
let catalog: Catalog;

beforeEach(async () => {
  ({ dir, cleanup } = makeTempDir());
  catalog = await openCatalog(join(dir, 'catalog.duckdb'));
});

afterEach(async () => {
  await catalog.close();
  cleanup();
});

/** Runs the stage and records its progress events. */
async function extract(options: ExtractOptions): Promise<{ summary: ExtractSummary; events: ProgressEvent[] }> {
  const events: ProgressEvent[] = [];
  const summary = await extractStep(catalog, { ...options, onProgress: (event) => events.push(event) });
  return { summary, events };
}

function extractedFilesOf(events: readonly ProgressEvent[]): string[] {
  return events.flatMap((event) => (event.kind === 'extract-file' ? [event.file] : []));
}

async function scalar(sql: string): Promise<number> {
  return Number((await catalog.query(sql)).rows[0]?.[0]);
}

describe('extractStep on the demo, fresh catalog', () => {
  it('stores every function and reports the pinned figures', async () => {
    const { summary } = await extract({ root: DEMO_ROOT });

    expect(summary.repository).toBe('demo');
    expect(summary.root).toBe(DEMO_ROOT);
    expect(summary.files).toBe(DEMO.files);
    expect(summary.extractedFiles).toBe(DEMO.files);
    expect(summary.unchangedFiles).toBe(0);
    expect(summary.removedFiles).toBe(0);
    expect(summary.functions).toBeGreaterThan(200);
    expect(summary.candidates).toBeGreaterThanOrEqual(40);
    expect(summary.functions).toBe(DEMO.functions);
    expect(summary.candidates).toBe(DEMO.candidates);
    expect(summary.meanComplexity.toFixed(2)).toBe(DEMO.meanComplexity);
    expect(summary.maxComplexity).toBe(DEMO.maxComplexity);
    expect(summary.problemFiles).toEqual([]);

    const functions = await catalog.functions('demo');
    expect(functions).toHaveLength(DEMO.functions);
    expect(await catalog.files('demo')).toHaveLength(DEMO.files);
    // The summary is the catalog's own count, not a tally kept on the side.
    expect(functions.filter((fn) => fn.isCandidate)).toHaveLength(summary.candidates);
    expect(await scalar("SELECT count(*) FROM functions WHERE repository = 'demo' AND is_candidate")).toBe(
      DEMO.candidates,
    );
  });

  it('marks the tests/ functions as test code and never as candidates', async () => {
    await extract({ root: DEMO_ROOT });
    const functions = await catalog.functions('demo');
    const testFunctions = functions.filter((fn) => fn.file.startsWith('tests/'));
    const libraryFunctions = functions.filter((fn) => fn.file.startsWith('inventory/'));

    expect(testFunctions.length).toBeGreaterThan(100);
    expect(testFunctions.every((fn) => fn.isTestCode)).toBe(true);
    expect(testFunctions.some((fn) => fn.isCandidate)).toBe(false);
    // conftest.py is test code too, though its name is not test_*.py.
    expect(testFunctions.some((fn) => fn.file === 'tests/conftest.py')).toBe(true);
    // Long docstrings in tests would pass the docstring rule: the test-code rule is what excludes them.
    expect(libraryFunctions.every((fn) => !fn.isTestCode)).toBe(true);
    expect(libraryFunctions.length + testFunctions.length).toBe(functions.length);

    // Every candidate is a library function whose docstring spans more than 10 lines, and vice versa.
    const longDocstring = libraryFunctions.filter(
      (fn) => fn.docstringSpan !== null && fn.docstringSpan.end - fn.docstringSpan.start + 1 > 10,
    );
    expect(functions.filter((fn) => fn.isCandidate).map((fn) => fn.functionId)).toEqual(
      longDocstring.map((fn) => fn.functionId),
    );
    expect(await scalar('SELECT count(*) FROM functions WHERE is_test_code AND is_candidate')).toBe(0);
  });

  it('keeps the CRLF endings of inventory/reports.py in the slices', async () => {
    await extract({ root: DEMO_ROOT });
    const text = readFileSync(join(DEMO_ROOT, 'inventory/reports.py'), 'utf8');
    expect(text).toContain('\r\n'); // the fixture itself must still have CRLF endings
    const functions = (await catalog.functions('demo')).filter((fn) => fn.file === 'inventory/reports.py');

    expect(functions.length).toBeGreaterThan(0);
    for (const fn of functions) {
      expect(fn.slices.prompt).toContain('\r\n');
      expect(fn.slices.prompt.endsWith('\r\n')).toBe(true);
      // No line ending lost its \r: every \n is preceded by one.
      expect(fn.slices.prompt.replaceAll('\r\n', '')).not.toContain('\n');
      expect(fn.slices.solution.replaceAll('\r\n', '')).not.toContain('\n');
      expect(text).toContain(fn.slices.full);
    }
  });

  it('keeps the tab indentation of inventory/warehouse.py in the slices', async () => {
    await extract({ root: DEMO_ROOT });
    const text = readFileSync(join(DEMO_ROOT, 'inventory/warehouse.py'), 'utf8');
    const functions = (await catalog.functions('demo')).filter((fn) => fn.file === 'inventory/warehouse.py');
    const methods = functions.filter((fn) => fn.className !== null);

    expect(methods.length).toBeGreaterThan(5);
    for (const fn of methods) {
      expect(fn.slices.prompt.startsWith('\tdef ') || fn.slices.prompt.startsWith('\tasync def ')).toBe(true);
      expect(
        fn.slices.solution === '' || fn.slices.solution.startsWith('\t') || fn.slices.solution.startsWith('\n'),
      ).toBe(true);
      expect(text).toContain(fn.slices.full);
    }
    // The module-level functions start at column 0, as written (`async def` included in the prompt).
    const moduleLevel = functions.filter((fn) => fn.className === null && !fn.nested);
    expect(moduleLevel.map((fn) => fn.slices.prompt.split('(')[0])).toEqual([
      'def fetch_remote_count',
      'async def restock_all',
    ]);
  });

  it('reports extract-start, one extract-file per file in order, then extract-stored', async () => {
    const { events } = await extract({ root: DEMO_ROOT });

    expect(events[0]).toEqual({
      kind: 'extract-start',
      repository: 'demo',
      files: DEMO.files,
      changed: DEMO.files,
      removed: 0,
    });
    const fileEvents = events.filter((event) => event.kind === 'extract-file');
    expect(fileEvents.map((event) => event.done)).toEqual(Array.from({ length: DEMO.files }, (_, i) => i + 1));
    expect(fileEvents.every((event) => event.total === DEMO.files)).toBe(true);
    expect(new Set(extractedFilesOf(events)).size).toBe(DEMO.files);
    expect(fileEvents.reduce((sum, event) => sum + event.functions, 0)).toBe(DEMO.functions);
    // The demo is under one batch: one store, after the last file.
    expect(events.at(-1)).toEqual({ kind: 'extract-stored', stored: DEMO.files, total: DEMO.files });
    expect(events.filter((event) => event.kind === 'extract-issue')).toEqual([]);
    expect(events).toHaveLength(1 + DEMO.files + 1);
  });

  it('names the catalog repository after --name when given', async () => {
    const { summary } = await extract({ root: DEMO_ROOT, repository: "o'demo" });
    expect(summary.repository).toBe("o'demo");
    expect(summary.functions).toBe(DEMO.functions);
    expect((await catalog.repositories()).map((r) => r.name)).toEqual(["o'demo"]);
  });

  it('gives the same rows with worker threads as in the calling thread', async () => {
    await extract({ root: DEMO_ROOT, repository: 'serial', workers: 0 });
    await extract({ root: DEMO_ROOT, repository: 'parallel', workers: 2 });
    const strip = (fns: Awaited<ReturnType<Catalog['functions']>>): unknown[] =>
      fns.map(({ repository: _r, functionId: _id, ...rest }) => rest);
    expect(strip(await catalog.functions('parallel'))).toEqual(strip(await catalog.functions('serial')));
  });

  it('refuses a root that does not exist, naming it', async () => {
    const missing = join(dir, 'no-such-repo');
    const error: unknown = await extractStep(catalog, { root: missing }).catch((e: unknown) => e);
    expect(isRepocodError(error) && error.code).toBe('path-not-found');
    expect(String(error)).toContain(missing);
  });
});

describe('extractStep rerun', () => {
  it('skips every unchanged file and keeps the same functions', async () => {
    const first = await extract({ root: DEMO_ROOT });
    const before = await catalog.functions('demo');
    const filesBefore = await catalog.files('demo');

    const { summary, events } = await extract({ root: DEMO_ROOT });
    expect(summary.extractedFiles).toBe(0);
    expect(summary.unchangedFiles).toBe(summary.files);
    expect(summary.files).toBe(DEMO.files);
    expect(summary.removedFiles).toBe(0);
    expect({ ...summary, extractedFiles: DEMO.files, unchangedFiles: 0 }).toEqual(first.summary);
    expect(await catalog.functions('demo')).toEqual(before);
    // Not even rewritten: the stored rows keep their first extraction time.
    expect(await catalog.files('demo')).toEqual(filesBefore);
    expect(events).toEqual([{ kind: 'extract-start', repository: 'demo', files: DEMO.files, changed: 0, removed: 0 }]);
  });
});

describe('extractStep on a changed tree', () => {
  let root: string;
  beforeEach(() => {
    root = copyDemo(dir);
  });

  it('re-extracts only the file that changed', async () => {
    await extract({ root });
    const filesBefore = new Map((await catalog.files('demo')).map((f) => [f.file, f]));
    appendFileSync(
      join(root, 'inventory/util.py'),
      '\n\ndef added_helper(value):\n    """Added by the test."""\n    return value or None\n',
    );

    const { summary, events } = await extract({ root });
    expect(summary.extractedFiles).toBe(1);
    expect(summary.unchangedFiles).toBe(DEMO.files - 1);
    expect(summary.functions).toBe(DEMO.functions + 1);
    expect(extractedFilesOf(events)).toEqual(['inventory/util.py']);
    expect(events[0]).toEqual({ kind: 'extract-start', repository: 'demo', files: DEMO.files, changed: 1, removed: 0 });

    const added = (await catalog.functions('demo')).find((fn) => fn.qualname === 'added_helper');
    expect(added?.file).toBe('inventory/util.py');
    expect(added?.metrics.cyclomatic).toBe(2);
    for (const file of await catalog.files('demo')) {
      if (file.file === 'inventory/util.py') expect(file.contentHash).not.toBe(filesBefore.get(file.file)?.contentHash);
      else expect(file).toEqual(filesBefore.get(file.file));
    }
  });

  it('removes a deleted file and its functions from the catalog', async () => {
    await extract({ root });
    const gone = 'tests/test_errors.py';
    const goneCount = (await catalog.functions('demo')).filter((fn) => fn.file === gone).length;
    expect(goneCount).toBeGreaterThan(0);
    rmSync(join(root, gone));

    const { summary, events } = await extract({ root });
    expect(summary.removedFiles).toBe(1);
    expect(summary.files).toBe(DEMO.files - 1);
    expect(summary.extractedFiles).toBe(0);
    expect(summary.functions).toBe(DEMO.functions - goneCount);
    expect(events[0]).toMatchObject({ kind: 'extract-start', removed: 1, changed: 0 });
    expect((await catalog.functions('demo')).some((fn) => fn.file === gone)).toBe(false);
    expect((await catalog.files('demo')).some((f) => f.file === gone)).toBe(false);
    expect(await scalar(`SELECT count(*) FROM functions WHERE file = '${gone}'`)).toBe(0);

    const again = await extract({ root });
    expect(again.summary.removedFiles).toBe(0);
  });

  it('keeps the clean functions of a file with a syntax error and reports it', async () => {
    writeFileSync(
      join(root, 'inventory/broken.py'),
      'def good(a):\n    """Fine."""\n    return a + 1\n\n\ndef bad(:\n    return 2\n\n\ndef after(b):\n    return ' +
        'b * ' +
        '2\n',
    );
    const { summary, events } = await extract({ root });

    expect(summary.files).toBe(DEMO.files + 1);
    expect(summary.problemFiles).toHaveLength(1);
    const [problem] = summary.problemFiles;
    expect(problem).toMatchObject({ file: 'inventory/broken.py', kind: 'syntax-error', lines: [6] });
    expect(problem?.message).toContain('inventory/broken.py');
    expect(events).toContainEqual({ kind: 'extract-issue', issue: problem });

    const broken = (await catalog.functions('demo')).filter((fn) => fn.file === 'inventory/broken.py');
    expect(broken.map((fn) => fn.qualname)).toEqual(['good', 'after']);
    expect(summary.functions).toBe(DEMO.functions + 2);
    const row = (await catalog.files('demo')).find((f) => f.file === 'inventory/broken.py');
    expect(row).toMatchObject({ status: 'syntax-error', functionCount: 2 });

    // The problem is the catalog's, not the run's: a rerun that skips the file still reports it.
    const again = await extract({ root });
    expect(again.summary.extractedFiles).toBe(0);
    expect(again.summary.problemFiles).toEqual(summary.problemFiles);

    // Fixing the file clears it.
    writeFileSync(join(root, 'inventory/broken.py'), 'def good(a):\n    return a + 1\n');
    const fixed = await extract({ root });
    expect(fixed.summary.extractedFiles).toBe(1);
    expect(fixed.summary.problemFiles).toEqual([]);
  });

  it('skips a latin-1 file as not-utf8 and keeps it skipped on rerun', async () => {
    const latin = Buffer.concat([
      Buffer.from('# -*- coding: latin-1 -*-\ndef price_label():\n    return "caf'),
      Buffer.from([0xe9]),
      Buffer.from('"\n'),
    ]);
    writeFileSync(join(root, 'inventory/legacy.py'), latin);
    const { summary } = await extract({ root });

    expect(summary.functions).toBe(DEMO.functions);
    expect(summary.problemFiles).toHaveLength(1);
    expect(summary.problemFiles[0]).toMatchObject({ file: 'inventory/legacy.py', kind: 'not-utf8' });
    expect(summary.problemFiles[0]?.message).toContain('inventory/legacy.py');
    expect((await catalog.files('demo')).find((f) => f.file === 'inventory/legacy.py')).toMatchObject({
      status: 'not-utf8',
      functionCount: 0,
    });

    const again = await extract({ root });
    expect(again.summary.extractedFiles).toBe(0);
    expect(again.summary.problemFiles.map((issue) => issue.kind)).toEqual(['not-utf8']);
  });
});

describe('extractStep with another candidate filter', () => {
  const stricter: ExtractionConfig = {
    ...DEFAULT_EXTRACTION_CONFIG,
    candidateFilter: { ...REPOCOD_CANDIDATE_FILTER, minDocstringLinesExclusive: 20 },
  };

  it('changes the fingerprint, so a rerun re-extracts every file', async () => {
    expect(extractorFingerprint(stricter)).not.toBe(extractorFingerprint(DEFAULT_EXTRACTION_CONFIG));
    await extract({ root: DEMO_ROOT });

    const { summary } = await extract({ root: DEMO_ROOT, config: stricter });
    expect(summary.extractedFiles).toBe(DEMO.files);
    expect(summary.unchangedFiles).toBe(0);
    expect(summary.functions).toBe(DEMO.functions);
    expect(summary.candidates).toBe(DEMO_CANDIDATES_OVER_20_LINES);
    expect(summary.candidates).toBeLessThan(DEMO.candidates);
    const fingerprints = new Set((await catalog.files('demo')).map((f) => f.extractorFingerprint));
    expect([...fingerprints]).toEqual([extractorFingerprint(stricter)]);

    // Same config again: nothing to do; back to the default: everything again.
    expect((await extract({ root: DEMO_ROOT, config: stricter })).summary.extractedFiles).toBe(0);
    const back = await extract({ root: DEMO_ROOT });
    expect(back.summary.extractedFiles).toBe(DEMO.files);
    expect(back.summary.candidates).toBe(DEMO.candidates);
  });
});

describe('extractStep interrupted', () => {
  const FILE_COUNT = 250;
  let root: string;

  beforeEach(() => {
    root = join(dir, 'many');
    mkdirSync(join(root, 'pkg'), { recursive: true });
    for (let i = 0; i < FILE_COUNT; i++) {
      const name = `mod_${String(i).padStart(3, '0')}.py`;
      writeFileSync(join(root, 'pkg', name), `def f_${i}(x):\n    if x > ${i}:\n        return x\n    return ${i}\n`);
    }
  });

  const stopAt = (stop: (event: ProgressEvent) => boolean) => (event: ProgressEvent) => {
    if (stop(event)) throw new Error('killed');
  };

  it('keeps every batch stored before the failure, and the rerun does only the rest', async () => {
    const events: ProgressEvent[] = [];
    const failed = extractStep(catalog, {
      root,
      onProgress: (event) => {
        events.push(event);
        stopAt((e) => e.kind === 'extract-stored')(event);
      },
    });
    await expect(failed).rejects.toThrow('killed');
    const stored = events.find((event) => event.kind === 'extract-stored');
    expect(stored).toEqual({ kind: 'extract-stored', stored: 100, total: FILE_COUNT });
    const storedFiles = extractedFilesOf(events);
    expect(storedFiles).toHaveLength(100);
    expect((await catalog.files('many')).map((f) => f.file).sort()).toEqual([...storedFiles].sort());

    const rerun = await extract({ root });
    expect(rerun.summary.extractedFiles).toBe(FILE_COUNT - 100);
    expect(rerun.summary.unchangedFiles).toBe(100);
    expect(rerun.summary.functions).toBe(FILE_COUNT);
    const redone = extractedFilesOf(rerun.events);
    expect(redone).toHaveLength(FILE_COUNT - 100);
    expect(redone.some((file) => storedFiles.includes(file))).toBe(false);
  });

  it('loses at most the files of the batch in flight', async () => {
    // Fails on the 150th parsed file: 100 are stored, the 50 parsed since are lost.
    const failed = extractStep(catalog, {
      root,
      onProgress: stopAt((e) => e.kind === 'extract-file' && e.done === 150),
    });
    await expect(failed).rejects.toThrow('killed');
    expect(await catalog.files('many')).toHaveLength(100);
    expect(await scalar("SELECT count(*) FROM functions WHERE repository = 'many'")).toBe(100);

    const rerun = await extract({ root });
    expect(rerun.summary.extractedFiles).toBe(FILE_COUNT - 100);
    expect(rerun.summary.functions).toBe(FILE_COUNT);
    expect(rerun.events.filter((event) => event.kind === 'extract-stored')).toEqual([
      { kind: 'extract-stored', stored: 100, total: 150 },
      { kind: 'extract-stored', stored: 150, total: 150 },
    ]);
  });
});
