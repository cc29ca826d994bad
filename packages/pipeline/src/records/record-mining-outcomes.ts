import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AnalysedFunction } from '@repocod/core';
import { RepocodError } from '@repocod/core';
import type { MiningOutcomes } from '../candidates/mining-outcomes.js';
import { functionKey } from '../candidates/mining-outcomes.js';

/**
 * Mining's answers as a committed rebuild record gives them (`<folder>/<repository>.jsonl` and
 * `.meta.json`): its tasks are candidates with relevant tests. When the record mined every candidate,
 * every other candidate had none; when it mined only some (Lite-first), absence from it says nothing
 * and only its tasks are answers. Null when there is no record.
 */
export function recordMiningOutcomes(
  folder: string,
  repository: string,
  candidates: readonly AnalysedFunction[],
): MiningOutcomes | null {
  const metaPath = join(folder, `${repository}.meta.json`);
  const linesPath = join(folder, `${repository}.jsonl`);
  if (!existsSync(metaPath) || !existsSync(linesPath)) return null;
  const meta = parseJson(readFileSync(metaPath, 'utf8'), metaPath) as {
    candidates?: number;
    mined?: { with_tests?: number; without_tests?: number; errors?: number };
  };
  const mined = (meta.mined?.with_tests ?? 0) + (meta.mined?.without_tests ?? 0) + (meta.mined?.errors ?? 0);
  const complete = meta.candidates !== undefined && mined >= meta.candidates;
  const tasks = new Set<string>();
  readFileSync(linesPath, 'utf8')
    .split('\n')
    .forEach((line, index) => {
      if (line.trim() === '') return;
      const row = parseJson(line, `${linesPath}:${index + 1}`) as { file?: unknown; qualname?: unknown };
      if (typeof row.file !== 'string' || typeof row.qualname !== 'string') {
        throw new RepocodError('usage', `${linesPath}:${index + 1}: a task without "file" and "qualname"`);
      }
      tasks.add(functionKey({ file: row.file, qualname: row.qualname }));
    });
  const answered = complete ? candidates : candidates.filter((fn) => tasks.has(functionKey(fn)));
  return new Map(answered.map((fn) => [functionKey(fn), tasks.has(functionKey(fn))]));
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new RepocodError('usage', `${where}: not JSON (${(error as Error).message}); restore it from git`);
  }
}
