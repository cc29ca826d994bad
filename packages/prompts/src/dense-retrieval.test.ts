import { describe, expect, it } from 'vitest';
import { denseRanking } from './dense-retrieval.js';
import type { CorpusFunction } from './function-corpus.js';

const fn = (qualname: string, defLine: number): CorpusFunction => ({
  file: 'm.py',
  qualname,
  defLine,
  start: defLine,
  end: defLine,
  text: `def ${qualname}(): ...`,
  isTestCode: false,
});

describe('denseRanking', () => {
  const corpus = [fn('a', 1), fn('b', 2), fn('c', 3), fn('zero', 4)];
  const vectors = [
    [1, 0],
    [1, 1],
    [0, 1],
    [0, 0],
  ];

  it('ranks by the cosine of the embeddings, nearest first, a zero vector near nothing', () => {
    const ranking = denseRanking(corpus, vectors, [2, 1], 4);
    expect(ranking.map((ranked) => ranked.fn.qualname)).toEqual(['b', 'a', 'c', 'zero']);
    expect(ranking[0]?.score).toBeCloseTo(3 / Math.sqrt(10), 12);
    expect(ranking.at(-1)?.score).toBe(0);
    expect(denseRanking(corpus, vectors, [2, 1], 1)).toHaveLength(1);
  });

  it('refuses embeddings that do not fit the corpus or the query', () => {
    expect(() => denseRanking(corpus, vectors.slice(1), [1, 0], 2)).toThrow('3 embedding(s) for 4 function(s)');
    expect(() => denseRanking(corpus, vectors, [1, 0, 0], 2)).toThrow('2 and 3 dimensions');
  });
});
