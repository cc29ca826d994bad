import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FunctionRecord } from '@repocod/core';
import { applyLinesPatch, PatchMismatchError, RepocodError } from '@repocod/core';
import type { CorpusFunction } from '@repocod/prompts';
import { Bm25Index, corpusFunctions } from '@repocod/prompts';
import type { loadPythonParser } from '@repocod/python';
import { listPythonFiles, parsePythonFile, parsePythonText } from '@repocod/python';
import type { RepositoryIndex } from '@repocod/tasks';
import { buildRepositoryIndex } from '@repocod/tasks';

type PythonParser = Awaited<ReturnType<typeof loadPythonParser>>;

/**
 * Every function of a repository's checkout at its base commit (every Python file the extraction reads, tests
 * included): the corpus the prompts' retrievals take a task's corpus from (prompts/function-corpus.ts), and the
 * index the callees are resolved with. A file that is not UTF-8 text gives no function; one with syntax errors gives
 * the functions that parse, as extraction does.
 */
export class RepositoryCorpus {
  private index: RepositoryIndex | null = null;
  private bm25: Bm25Index | null = null;

  private constructor(
    private readonly parser: PythonParser,
    private readonly texts: ReadonlyMap<string, string>,
    readonly functions: readonly CorpusFunction[],
    private readonly records: ReadonlyMap<string, FunctionRecord>,
  ) {}

  static read(root: string, parser: PythonParser): RepositoryCorpus {
    const texts = new Map<string, string>();
    const functions: CorpusFunction[] = [];
    const records = new Map<string, FunctionRecord>();
    for (const file of listPythonFiles(root)) {
      const outcome = parsePythonFile(parser, readFileSync(join(root, file)), file);
      if (!outcome.ok) continue;
      const { parsed } = outcome;
      parsed.tree.delete();
      texts.set(file, parsed.text);
      functions.push(...corpusFunctions(parsed.functions, parsed.lines));
      for (const fn of parsed.functions) records.set(recordKey(file, fn.signatureSpan.start), fn);
    }
    return new RepositoryCorpus(parser, texts, functions, records);
  }

  /**
   * The functions of the files a task's test patch changes, as its pre state has them (prompts' taskCorpus takes
   * them in place of the base commit's). A patch of files this checkout does not have, or of other lines, is refused
   * with the task named.
   */
  testFiles(instanceId: string, preTest: string): Map<string, CorpusFunction[]> {
    let patched: Map<string, string>;
    try {
      patched = applyLinesPatch(preTest, (file) => {
        const text = this.texts.get(file);
        if (text === undefined) throw new PatchMismatchError(file, 1, 'no such Python file in the checkout');
        return text;
      });
    } catch (error) {
      if (!(error instanceof PatchMismatchError)) throw error;
      throw new RepocodError(
        'usage',
        `${instanceId}: pre_patches.test: ${error.message} Give the sources the release was built with.`,
      );
    }
    const files = new Map<string, CorpusFunction[]>();
    for (const [file, text] of patched) {
      const parsed = parsePythonText(this.parser, text, file);
      parsed.tree.delete();
      files.set(file, corpusFunctions(parsed.functions, parsed.lines));
    }
    return files;
  }

  /** The function whose `def` is at `line` of `file`, as extraction records it. */
  functionAt(file: string, line: number): FunctionRecord | undefined {
    return this.records.get(recordKey(file, line));
  }

  /** The BM25 index of the repository's functions, built on first use: each task's ranking is taken in it. */
  bm25Index(): Bm25Index {
    this.bm25 ??= new Bm25Index(this.functions);
    return this.bm25;
  }

  /** The repository's index for the level modes' classifiers, built on first use. */
  repositoryIndex(): RepositoryIndex {
    this.index ??= buildRepositoryIndex(this.parser, this.texts);
    return this.index;
  }
}

function recordKey(file: string, line: number): string {
  return `${file}:${line}`;
}
