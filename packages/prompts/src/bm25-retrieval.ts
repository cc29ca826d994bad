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
 * A BM25 index of a repository's functions, which ranks within any task's corpus of them (function-corpus.ts: the
 * repository's functions with a few left out and a few changed). Indexing a large repository takes seconds (plotly.py:
 * 43,000 functions), so the index is built once: for each task the functions its corpus does not hold are removed,
 * its own versions added, the ranking taken, and the index restored. MiniSearch removes a function's terms and
 * recounts N, n(t) and avgdl at once, so a ranking is the one a fresh index of the task's corpus gives, its scores
 * equal up to floating-point rounding (avgdl is updated, not summed again; bm25-retrieval.test.ts compares them).
 */
export class Bm25Index {
  private readonly index = new MiniSearch<IndexedFunction>({
    fields: ['terms'],
    tokenize: (text) => (text.length === 0 ? [] : text.split(' ')),
    processTerm: (term) => term,
    searchOptions: { bm25: { k: BM25_PARAMETERS.k1, b: BM25_PARAMETERS.b, d: 0 } },
  });
  private readonly documents: readonly IndexedFunction[];
  private readonly indexed: ReadonlySet<CorpusFunction>;

  constructor(private readonly functions: readonly CorpusFunction[]) {
    this.documents = functions.map((fn, id) => ({ id, terms: indexedTerms(fn) }));
    this.indexed = new Set(functions);
    this.index.addAll(this.documents);
  }

  /**
   * The `top` functions of `corpus` BM25 ranks highest for `query` (the target's signature and docstring), over the
   * terms of code-terms.ts; each distinct query term counts once. Functions that share no term with the query are
   * never ranked. Ties go by file, then line (ranked-function.ts).
   *
   * MiniSearch multiplies each score by the number of query terms the function matched (`queryTerms`: a coordination
   * factor that BM25 has not); the score is divided by it again, which leaves BM25's sum over the matched terms.
   */
  rank(corpus: readonly CorpusFunction[], query: string, top: number): RankedFunction[] {
    const held = new Set(corpus);
    const removed = this.documents.filter((document) => !held.has(this.functions[document.id] as CorpusFunction));
    const added = corpus
      .filter((fn) => !this.indexed.has(fn))
      .map((fn, index) => ({ fn, document: { id: -1 - index, terms: indexedTerms(fn) } }));
    const byId = new Map<number, CorpusFunction>(added.map(({ fn, document }) => [document.id, fn]));
    // Each change is undone in the finally, even when one of them or the search throws: the index is the
    // repository's again for the next task.
    const removedDone: IndexedFunction[] = [];
    const addedDone: IndexedFunction[] = [];
    try {
      for (const document of removed) {
        this.index.remove(document);
        removedDone.push(document);
      }
      for (const { document } of added) {
        this.index.add(document);
        addedDone.push(document);
      }
      const queryTerms = [...new Set(codeTerms(query))];
      if (queryTerms.length === 0) return [];
      return this.index
        .search(queryTerms.join(' '))
        .map((result) => ({
          fn: (byId.get(result.id) ?? this.functions[result.id]) as CorpusFunction,
          score: result.score / result.queryTerms.length,
        }))
        .sort(rankingOrder)
        .slice(0, top);
    } finally {
      for (const document of addedDone) this.index.remove(document);
      this.index.addAll(removedDone);
    }
  }
}

/** The `top` functions of the corpus BM25 ranks highest for `query`: a fresh index of the corpus (Bm25Index). */
export function bm25Ranking(corpus: readonly CorpusFunction[], query: string, top: number): RankedFunction[] {
  return new Bm25Index(corpus).rank(corpus, query, top);
}
