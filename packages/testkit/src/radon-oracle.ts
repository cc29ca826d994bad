import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { RepocodError } from '@repocod/core';

const run = promisify(execFile);

/** One function as `radon cc -j` reports it, closures and methods flattened out. */
export interface RadonFunction {
  readonly file: string;
  readonly name: string;
  readonly defLine: number;
  readonly cyclomatic: number;
}

interface RadonBlock {
  readonly type: 'function' | 'method' | 'class';
  readonly name: string;
  readonly lineno: number;
  readonly complexity: number;
  readonly methods?: readonly RadonBlock[];
  readonly closures?: readonly RadonBlock[];
}

/**
 * The radon CLI is an oracle for tests and benchmarks only, never a dependency of the product.
 * Looked up in $RADON, then in the venv that scripts/setup.sh makes, then on PATH.
 */
export function findRadon(projectRoot: string): string {
  const candidates = [process.env.RADON, resolve(projectRoot, '.repocod/tools/py/bin/radon')];
  for (const candidate of candidates)
    if (candidate !== undefined && candidate !== '' && existsSync(candidate)) return candidate;
  return 'radon';
}

/** Runs `radon cc -j` on the files (relative to `root`), in batches that fit a command line. */
export async function runRadon(radon: string, root: string, files: readonly string[]): Promise<RadonFunction[]> {
  const found: RadonFunction[] = [];
  for (const batch of batches(files, 60_000)) {
    let stdout: string;
    try {
      ({ stdout } = await run(radon, ['cc', '-j', ...batch], { cwd: root, maxBuffer: 1 << 30 }));
    } catch (error) {
      throw new RepocodError(
        'tool-missing',
        `could not run "${radon} cc -j" (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); ` +
          'run `bash scripts/setup.sh` (it installs radon 5.1.0 into .repocod/tools/py) or set $RADON',
      );
    }
    const report = JSON.parse(stdout) as Record<string, readonly RadonBlock[] | { error: string }>;
    for (const [file, blocks] of Object.entries(report)) {
      if (!Array.isArray(blocks)) continue;
      found.push(...flattenRadonBlocks(file, blocks as readonly RadonBlock[]));
    }
  }
  return found;
}

/**
 * radon lists each method twice (under its class and again at top level) and nests closures under
 * their function; this gives each function once.
 */
export function flattenRadonBlocks(file: string, blocks: readonly RadonBlock[]): RadonFunction[] {
  const byKey = new Map<string, RadonFunction>();
  const add = (block: RadonBlock): void => {
    if (block.type === 'class') {
      for (const method of block.methods ?? []) add(method);
      return;
    }
    byKey.set(`${block.lineno}:${block.name}`, {
      file,
      name: block.name,
      defLine: block.lineno,
      cyclomatic: block.complexity,
    });
    for (const closure of block.closures ?? []) add(closure);
  };
  for (const block of blocks) add(block);
  return [...byKey.values()];
}

function* batches(files: readonly string[], maxChars: number): Generator<string[]> {
  let batch: string[] = [];
  let size = 0;
  for (const file of files) {
    if (size + file.length > maxChars && batch.length > 0) {
      yield batch;
      batch = [];
      size = 0;
    }
    batch.push(file);
    size += file.length + 1;
  }
  if (batch.length > 0) yield batch;
}

export interface ComplexityComparison {
  readonly radonFunctions: number;
  readonly ourFunctions: number;
  readonly compared: number;
  /** Functions radon reports that we do not (files tree-sitter cannot parse cleanly). */
  readonly onlyRadon: readonly RadonFunction[];
  readonly mismatches: readonly {
    readonly file: string;
    readonly name: string;
    readonly defLine: number;
    readonly ours: number;
    readonly radon: number;
  }[];
}

/** Compares by (file, `def` line, name): the identity both tools agree on. */
export function compareComplexity(
  radon: readonly RadonFunction[],
  ours: readonly {
    readonly file: string;
    readonly name: string;
    readonly defLine: number;
    readonly cyclomatic: number;
  }[],
): ComplexityComparison {
  const key = (fn: { file: string; name: string; defLine: number }): string => `${fn.file}:${fn.defLine}:${fn.name}`;
  const ourByKey = new Map(ours.map((fn) => [key(fn), fn]));
  const mismatches: ComplexityComparison['mismatches'][number][] = [];
  let compared = 0;
  const onlyRadon: RadonFunction[] = [];
  for (const fn of radon) {
    const mine = ourByKey.get(key(fn));
    if (mine === undefined) {
      onlyRadon.push(fn);
      continue;
    }
    compared++;
    if (mine.cyclomatic !== fn.cyclomatic) {
      mismatches.push({
        file: fn.file,
        name: fn.name,
        defLine: fn.defLine,
        ours: mine.cyclomatic,
        radon: fn.cyclomatic,
      });
    }
  }
  return { radonFunctions: radon.length, ourFunctions: ours.length, compared, onlyRadon, mismatches };
}
