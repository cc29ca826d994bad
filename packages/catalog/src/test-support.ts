import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnalysedFunction } from '@repocod/core';
import type { FileExtraction } from './file-extraction.js';

/** Shared by the tests only: synthetic functions and throwaway folders. */

export async function makeTempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'repocod-catalog-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** A plausible method: the `index`-th definition of `file`, each 20 lines long. */
export function syntheticFunction(file: string, index: number, overrides: Partial<AnalysedFunction> = {}): AnalysedFunction {
  const start = 1 + index * 20;
  const prompt = `    def method_${index}(self, a, b):\n        """Doc\n\n        more\n        """\n`;
  const solution = `        return a + b  # ${index}\n`;
  return {
    file,
    name: `method_${index}`,
    qualname: `Widget.method_${index}`,
    className: 'Widget',
    nested: false,
    kind: 'method',
    isAsync: false,
    decorators: index % 3 === 0 ? ['staticmethod', 'functools.cache'] : [],
    isTestCode: false,
    definitionSpan: { start, end: start + 5 },
    signatureSpan: { start: start + (index % 3 === 0 ? 2 : 0), end: start + 2 },
    docstringSpan: index % 2 === 0 ? { start: start + 3, end: start + 15 } : null,
    bodySpan: { start: start + 3, end: start + 16 },
    slices: { prompt, solution, full: prompt + solution },
    parameterCount: 3,
    metrics: {
      cyclomatic: 1 + (index % 7),
      promptTokens: 20 + index,
      solutionTokens: 8,
      promptLines: 5,
      solutionLines: 1,
      halsteadVolume: 12.5 + index / 3,
      halsteadEffort: 40.25,
      logicalLines: 1,
      maintainability: 71.123456789,
    },
    isCandidate: index % 2 === 0,
    ...overrides,
  };
}

export function okExtraction(file: string, functionCount: number, contentHash = `hash-of-${file}`): FileExtraction {
  return {
    file,
    contentHash,
    extractorFingerprint: 'extractor-v1',
    status: 'ok',
    issue: null,
    functions: Array.from({ length: functionCount }, (_, i) => syntheticFunction(file, i)),
  };
}
