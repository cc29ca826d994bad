import type { CorpusFunction } from './function-corpus.js';

/** A function of the corpus as a retrieval ranked it for a query: the higher the score, the more relevant. */
export interface RankedFunction {
  readonly fn: CorpusFunction;
  readonly score: number;
}

/** The order of a ranking: the highest score first, ties by file then line, so a ranking is the same on every run. */
export function rankingOrder(a: RankedFunction, b: RankedFunction): number {
  return (
    b.score - a.score || (a.fn.file < b.fn.file ? -1 : a.fn.file > b.fn.file ? 1 : 0) || a.fn.defLine - b.fn.defLine
  );
}
