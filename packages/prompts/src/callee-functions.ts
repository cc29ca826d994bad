import type { CorpusFunction, TaskCorpus } from './function-corpus.js';

/** A definition the canonical solution calls, as a level mode resolved it (tasks' LevelCall has these fields). */
export interface CalleeReference {
  readonly file: string;
  readonly qualname: string;
  /** The line of its `def` or `class` keyword at the base commit. */
  readonly definitionLine: number;
}

export interface Callees {
  /** The callees' functions from the task's corpus, in the order of the calls, each once. */
  readonly functions: readonly CorpusFunction[];
  /** Calls with no function of the corpus to give: a class without its own `__init__`, or one left out of it. */
  readonly notGiven: readonly CalleeReference[];
}

/**
 * The functions the canonical solution calls, taken from the task's corpus (so never the solution, nor anything
 * defined inside it): a function or method as it is, and for a class called (instantiated) its own `__init__`, which
 * the call runs. A class whose `__init__` is inherited or absent gives nothing.
 */
export function calleeFunctions(corpus: TaskCorpus, calls: readonly CalleeReference[]): Callees {
  const byFile = new Map<string, CorpusFunction[]>();
  for (const fn of corpus.functions) {
    const list = byFile.get(fn.file) ?? [];
    list.push(fn);
    byFile.set(fn.file, list);
  }
  const functions: CorpusFunction[] = [];
  const notGiven: CalleeReference[] = [];
  for (const call of calls) {
    const inFile = byFile.get(call.file) ?? [];
    const found =
      inFile.find((fn) => fn.defLine === call.definitionLine && fn.qualname === call.qualname) ??
      inFile.find((fn) => fn.qualname === `${call.qualname}.__init__` && fn.defLine > call.definitionLine);
    if (found === undefined) {
      if (!notGiven.some((each) => each.file === call.file && each.definitionLine === call.definitionLine))
        notGiven.push(call);
    } else if (!functions.includes(found)) functions.push(found);
  }
  return { functions, notGiven };
}
