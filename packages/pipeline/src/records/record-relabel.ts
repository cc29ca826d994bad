import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog } from '@repocod/catalog';
import type { ContextLevel, LevelMode } from '@repocod/core';
import { CONTEXT_LEVELS, LEVEL_MODES, RepocodError } from '@repocod/core';
import { listPythonFiles, loadPythonParser } from '@repocod/python';
import { buildRepositoryIndex } from '@repocod/tasks';
import { functionKey } from '../candidates/mining-outcomes.js';
import type { FunctionLevels } from '../candidates/classify-functions.js';
import { classifyFunctions } from '../candidates/classify-functions.js';

/**
 * Labels the tasks of a committed record under every level mode, from the repository's checkout: a
 * level depends on the source alone, so a record whose catalog is gone (a whole mining done on another
 * machine) gets the modes' labels without mining again. Every other field stays as it was; each line
 * gets `level` under `mode`, `level_mode` and `levels` (in the order a new record writes them), and the
 * meta its counts per level under each mode.
 */
export async function relabelRecord(
  catalog: Catalog,
  folder: string,
  repository: string,
  mode: LevelMode,
): Promise<{ readonly files: readonly string[]; readonly tasks: number; readonly byLevel: Record<string, number> }> {
  const linesPath = join(folder, `${repository}.jsonl`);
  const metaPath = join(folder, `${repository}.meta.json`);
  if (!existsSync(linesPath) || !existsSync(metaPath))
    throw new RepocodError('usage', `${repository}: no record in ${folder} (${repository}.jsonl and .meta.json)`);
  const known = (await catalog.repositories()).find((candidate) => candidate.name === repository);
  if (known === undefined || !existsSync(known.root))
    throw new RepocodError(
      'usage',
      `${repository}: not extracted in the catalog ${catalog.path}, or its checkout is gone; the labels are read ` +
        `from ` +
        `its source (run \`repocod env ${repository}\` and \`repocod extract\`)`,
    );
  const lines = readFileSync(linesPath, 'utf8')
    .split('\n')
    .flatMap((text, index) =>
      text.trim() === '' ? [] : [{ line: index + 1, row: parseLine(text, linesPath, index) }],
    );
  const functions = new Map((await catalog.functions(repository)).map((fn) => [functionKey(fn), fn]));
  const chosen = lines.map(({ line, row }) => {
    const fn = functions.get(functionKey({ file: String(row.file), qualname: String(row.qualname) }));
    if (fn === undefined)
      throw new RepocodError(
        'usage',
        `${linesPath}:${line}: ${String(row.file)}::${String(row.qualname)} is not a function of ${repository}'s ` +
          `extraction at ${known.root}; is the checkout at the record's base commit?`,
      );
    return fn;
  });
  const root = known.root;
  const texts = new Map(listPythonFiles(root).map((file) => [file, readFileSync(join(root, file), 'utf8')]));
  const labels = classifyFunctions(buildRepositoryIndex(await loadPythonParser(), texts), chosen);
  const relabelled = lines.map(({ row }, index) =>
    relabelLine(row, labels.get(chosen[index]?.functionId ?? '') as FunctionLevels, mode),
  );
  const meta = JSON.parse(readFileSync(metaPath, 'utf8')) as Record<string, unknown>;
  const counts = (of: (row: Record<string, unknown>) => unknown): Record<ContextLevel, number> =>
    Object.fromEntries(
      CONTEXT_LEVELS.map((level) => [level, relabelled.filter((row) => of(row) === level).length]),
    ) as Record<ContextLevel, number>;
  const tasks = (meta.tasks ?? {}) as Record<string, unknown>;
  const byLevel = counts((row) => row.level);
  meta.tasks = {
    total: tasks.total ?? relabelled.length,
    level_mode: mode,
    by_level: byLevel,
    by_level_mode: Object.fromEntries(
      LEVEL_MODES.map((each) => [each, counts((row) => (row.levels as Record<string, unknown>)[each])]),
    ),
    passing_checks: tasks.passing_checks ?? null,
  };
  writeFileSync(linesPath, relabelled.map((row) => `${JSON.stringify(row)}\n`).join(''));
  writeFileSync(metaPath, `${JSON.stringify(meta, null, 2)}\n`);
  return { files: [linesPath, metaPath], tasks: relabelled.length, byLevel };
}

/** The line with the labels put where a new record has them (after `level`), every other field as it was. */
export function relabelLine(
  row: Readonly<Record<string, unknown>>,
  labels: FunctionLevels,
  mode: LevelMode,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (key === 'level_mode' || key === 'levels') continue;
    if (key !== 'level') {
      out[key] = value;
      continue;
    }
    out.level = labels.levels[mode].level;
    out.level_mode = mode;
    out.levels = Object.fromEntries(LEVEL_MODES.map((each) => [each, labels.levels[each].level]));
  }
  return out;
}

function parseLine(text: string, file: string, index: number): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // named below
  }
  throw new RepocodError('usage', `${file}:${index + 1}: not a JSON object; restore the record from git`);
}
