import type {
  CorpusFunction,
  CorpusTarget,
  FunctionsSetting,
  GivenFunction,
  PromptFunctions,
  RankedFunction,
  TaskCorpus,
} from '@repocod/prompts';
import {
  BM25_LIBRARY,
  BM25_PARAMETERS,
  calleeFunctions,
  denseRanking,
  PromptInputError,
  taskCorpus,
} from '@repocod/prompts';
import { LEVEL_CLASSIFIERS } from '@repocod/tasks';
import type { EmbeddingCommand } from './embedding-command.js';
import type { RepositoryCorpus } from './repository-corpus.js';

export interface PromptFunctionsOptions {
  /** How many functions a retrieval gives. */
  readonly top: number;
  /** The dense setting's embedding model; required for it. */
  readonly embedder?: EmbeddingCommand;
}

/** A task as its prompt's functions are found: where its body is, its test patch, and its query. */
export interface FunctionsTask extends CorpusTarget {
  readonly instanceId: string;
  readonly preTest: string;
  /** The target's signature and docstring (prompts' promptTarget). */
  readonly query: string;
}

/** The task's corpus: the repository's functions in its pre state, its body and tests removed (prompts' taskCorpus). */
export function corpusOfTask(repository: RepositoryCorpus, task: FunctionsTask): TaskCorpus {
  return taskCorpus(repository.functions, task, repository.testFiles(task.instanceId, task.preTest));
}

/**
 * The functions a task's prompt gives under a setting that gives functions: retrieved from the task's corpus (the
 * repository's functions with the solution and the task's tests nowhere in them) with the target's signature and
 * docstring as the query, the most relevant last; or the callees of its canonical solution, as the repocod-v4 level
 * mode resolves them.
 */
export async function promptFunctions(
  setting: FunctionsSetting,
  repository: RepositoryCorpus,
  target: FunctionsTask,
  corpus: TaskCorpus,
  options: PromptFunctionsOptions,
): Promise<PromptFunctions> {
  if (setting === 'callees') {
    const record = repository.functionAt(target.file, target.defLine);
    if (record === undefined)
      throw new PromptInputError('the target is not in the corpus', target.file, target.defLine);
    const calls = LEVEL_CLASSIFIERS['repocod-v4'](repository.repositoryIndex(), record).calls;
    const callees = calleeFunctions(corpus, calls);
    return {
      given: callees.functions.map((fn) => given(fn, null)),
      retrieval: { method: 'callees', level_mode: 'repocod-v4', not_given: callees.notGiven },
    };
  }
  const common = {
    top: options.top,
    query: 'target',
    corpus: corpus.functions.length,
    left_out: corpus.leftOut.filter((fn) => fn.reason !== 'removed with the tests'),
    tests_left_out: corpus.leftOut.filter((fn) => fn.reason === 'removed with the tests').length,
  } as const;
  if (setting === 'bm25') {
    const ranking = repository.bm25Index().rank(corpus.functions, target.query, options.top);
    return {
      given: mostRelevantLast(ranking),
      retrieval: { method: 'bm25', library: BM25_LIBRARY, k1: BM25_PARAMETERS.k1, b: BM25_PARAMETERS.b, ...common },
    };
  }
  const embedder = options.embedder;
  if (embedder === undefined) throw new PromptInputError('the dense setting needs an embedding command');
  const [query, ...vectors] = await embedder.embed([target.query, ...corpus.functions.map((fn) => fn.text)]);
  const ranking = denseRanking(corpus.functions, vectors, query ?? [], options.top);
  return { given: mostRelevantLast(ranking), retrieval: { method: 'dense', command: embedder.command, ...common } };
}

function mostRelevantLast(ranking: readonly RankedFunction[]): GivenFunction[] {
  return ranking.map(({ fn, score }) => given(fn, score)).reverse();
}

function given(fn: CorpusFunction, score: number | null): GivenFunction {
  return {
    file_path: fn.file,
    function_name: fn.qualname,
    line: fn.defLine,
    score: score === null ? null : Number(score.toFixed(4)),
    text: fn.text,
  };
}
