import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listPythonFiles, pythonStdlibPath } from '@repocod/python';
import { describe, expect, it } from 'vitest';
import { analyseFiles } from './analyse-files.js';
import type { FileAnalysis } from './analyse-python-file.js';

describe('analyseFiles', () => {
  it('gives the same analyses in a worker pool as in the calling thread', { timeout: 120_000 }, async () => {
    const root = join(pythonStdlibPath(), 'json');
    const sources = listPythonFiles(root).map((file) => ({ file, bytes: readFileSync(join(root, file)) }));
    const collect = async (workers: number): Promise<FileAnalysis[]> => {
      const results: FileAnalysis[] = [];
      for await (const result of analyseFiles(sources, { workers })) results.push(result);
      return results.sort((a, b) => a.file.localeCompare(b.file));
    };
    const inThread = await collect(0);
    const pooled = await collect(2);
    expect(inThread.length).toBe(sources.length);
    expect(inThread.flatMap((result) => result.functions).length).toBeGreaterThan(30);
    expect(pooled).toEqual(inThread);
  });

  it('reports a file it cannot decode and goes on', async () => {
    const sources = [
      { file: 'ok.py', bytes: new TextEncoder().encode('def f():\n    return 1\n') },
      { file: 'latin.py', bytes: new Uint8Array([0x78, 0x3d, 0x27, 0xe9, 0x27, 0x0a]) },
    ];
    const results: FileAnalysis[] = [];
    for await (const result of analyseFiles(sources, { workers: 0 })) results.push(result);
    expect(results.map((result) => [result.file, result.functions.length, result.issue?.kind ?? null])).toEqual([
      ['ok.py', 1, null],
      ['latin.py', 0, 'not-utf8'],
    ]);
  });
});
