import { loadPythonParser } from '@repocod/python';
import { describe, expect, it } from 'vitest';
import { BM25_PARAMETERS, bm25Ranking } from './bm25-retrieval.js';
import { codeTerms } from './code-terms.js';
import type { CorpusFunction } from './function-corpus.js';
import { taskCorpus } from './function-corpus.js';
import { BOX_BODY, boxRepository } from './testing/box-module.js';

/** The formula bm25-retrieval.ts states, computed here by hand: the oracle of the library's scores. */
function statedBm25(corpus: readonly CorpusFunction[], query: string): Map<CorpusFunction, number> {
  const documents = corpus.map((fn) => codeTerms(fn.text));
  const lengths = documents.map((terms) => new Set(terms).size);
  const average = lengths.reduce((sum, length) => sum + length, 0) / lengths.length;
  const { k1, b } = BM25_PARAMETERS;
  const scores = new Map<CorpusFunction, number>();
  corpus.forEach((fn, index) => {
    let score = 0;
    for (const term of new Set(codeTerms(query))) {
      const frequency = documents[index]?.filter((each) => each === term).length ?? 0;
      if (frequency === 0) continue;
      const holding = documents.filter((terms) => terms.includes(term)).length;
      const idf = Math.log(1 + (corpus.length - holding + 0.5) / (holding + 0.5));
      score += (idf * frequency * (k1 + 1)) / (frequency + k1 * (1 - b + (b * (lengths[index] ?? 0)) / average));
    }
    if (score > 0) scores.set(fn, score);
  });
  return scores;
}

describe('bm25Ranking', async () => {
  const repository = boxRepository(await loadPythonParser());
  const corpus = taskCorpus(repository, {
    file: 'pkg/box.py',
    defLine: 6,
    bodyStart: BOX_BODY.start,
    bodyEnd: BOX_BODY.end,
  }).functions;
  const query = '    @functools.cache\n    def area(self, scale):\n        """The area of the box."""';

  it('scores each function as the stated BM25 formula does, and ranks the highest first', () => {
    const ranking = bm25Ranking(corpus, query, 10);
    const expected = statedBm25(corpus, query);
    expect(ranking.map((ranked) => ranked.fn.qualname)).toEqual(
      [...expected.entries()].sort((x, y) => y[1] - x[1]).map(([fn]) => fn.qualname),
    );
    for (const ranked of ranking) expect(ranked.score).toBeCloseTo(expected.get(ranked.fn) ?? -1, 10);
    expect(ranking[0]?.fn.qualname).toBe('Box.perimeter');
  });

  it('gives at most `top` functions, never one that shares no term with the query', () => {
    expect(bm25Ranking(corpus, query, 2)).toHaveLength(2);
    expect(bm25Ranking(corpus, 'zebra', 5)).toEqual([]);
    expect(bm25Ranking(corpus, '', 5)).toEqual([]);
  });

  it('breaks ties by file, then line, so that a ranking is the same on every run', () => {
    const twin = (file: string, defLine: number): CorpusFunction => ({
      file,
      qualname: 'f',
      defLine,
      start: defLine,
      end: defLine + 1,
      text: 'def f():\n    return width',
      isTestCode: false,
    });
    const other = { ...twin('a.py', 1), qualname: 'g', text: 'def g():\n    return 0' };
    const ranking = bm25Ranking([twin('b.py', 9), twin('a.py', 5), twin('a.py', 3), other], 'width', 3);
    expect(ranking.map((ranked) => `${ranked.fn.file}:${ranked.fn.defLine}`)).toEqual(['a.py:3', 'a.py:5', 'b.py:9']);
  });
});
