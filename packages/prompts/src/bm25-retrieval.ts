import MiniSearch from 'minisearch';
import { codeTerms } from './code-terms.js';
import type { CorpusFunction } from './function-corpus.js';
import type { RankedFunction } from './ranked-function.js';
import { rankingOrder } from './ranked-function.js';

/**
 * Okapi BM25 as MiniSearch computes it, with its BM25+ lower bound δ set to 0 (plain BM25): for each distinct query
 * term t a function holds, idf(t) · f(t)·(k1 + 1) / (f(t) + k1·(1 − b + b·|D| / avgdl)), with Lucene's idf,
 * ln(1 + (N − n(t) + 0.5) / (n(t) + 0.5)), and Lucene's defaults for k1 (term-frequency saturation) and b (length
 * normalisation). One difference from the textbook: MiniSearch counts a function's length |D| (and avgdl) in distinct
 * terms, not in all of them. bm25-retrieval.test.ts checks the scores against this formula.
 */
export const BM25_PARAMETERS = { k1: 1.2, b: 0.75 } as const;

/** Where the ranking comes from, as a prompt records it. */
export const BM25_LIBRARY = 'minisearch@7.2.0';

interface IndexedFunction {
  readonly id: number;
  readonly terms: string;
}

const termsOf = new WeakMap<CorpusFunction, string>();

/** A function's terms joined by spaces (the form the index is given), worked out once per function. */
function indexedTerms(fn: CorpusFunction): string {
  let terms = termsOf.get(fn);
  if (terms === undefined) {
    terms = codeTerms(fn.text).join(' ');
    termsOf.set(fn, terms);
  }
  return terms;
}

/**
 * The `top` functions of the corpus BM25 ranks highest for `query` (the target's signature and docstring), over the
 * terms of code-terms.ts; each distinct query term counts once. Functions that share no term with the query are never
 * ranked. Ties are broken by file, then line, so that a ranking is the same on every run.
 *
 * MiniSearch multiplies each score by the number of query terms the function matched (a coordination factor that
 * BM25 has not); the score is divided by it again, which leaves BM25's sum over the matched terms.
 */
export function bm25Ranking(corpus: readonly CorpusFunction[], query: string, top: number): RankedFunction[] {
  const index = new MiniSearch<IndexedFunction>({
    fields: ['terms'],
    tokenize: (text) => (text.length === 0 ? [] : text.split(' ')),
    processTerm: (term) => term,
    searchOptions: { bm25: { k: BM25_PARAMETERS.k1, b: BM25_PARAMETERS.b, d: 0 } },
  });
  index.addAll(corpus.map((fn, id) => ({ id, terms: indexedTerms(fn) })));
  const queryTerms = [...new Set(codeTerms(query))];
  if (queryTerms.length === 0) return [];
  return index
    .search(queryTerms.join(' '))
    .map((result) => ({ fn: corpus[result.id] as CorpusFunction, score: result.score / result.terms.length }))
    .sort(rankingOrder)
    .slice(0, top);
}
