import { loadPythonParser } from '@repocod/python';
import { describe, expect, it } from 'vitest';
import { BM25_PARAMETERS, Bm25Index, bm25Ranking } from './bm25-retrieval.js';
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

  it("ranks a task's corpus in an index of the whole repository as a fresh index of that corpus does", () => {
    const index = new Bm25Index(repository);
    const other = taskCorpus(repository, { file: 'pkg/shapes.py', defLine: 1, bodyStart: 3, bodyEnd: 3 }).functions;
    // A nested target: the function enclosing it is in the corpus without the target's body, a version of its own.
    const nested = taskCorpus(repository, { file: 'pkg/box.py', defLine: 22, bodyStart: 23, bodyEnd: 23 }).functions;
    expect(nested.find((fn) => fn.qualname === 'copied_area')?.text).not.toContain('return value * scale');
    for (const [each, text] of [
      [corpus, query],
      [other, 'def circle_area(radius): """The area of a circle."""'],
      [corpus, query],
      [repository, 'scale width height'],
      [nested, 'def scaled(value): scale the value'],
    ] as const) {
      const fresh = bm25Ranking(each, text, 10);
      const ranked = index.rank(each, text, 10);
      expect(ranked.map((r) => r.fn)).toEqual(fresh.map((r) => r.fn));
      ranked.forEach((r, position) => {
        expect(r.score).toBeCloseTo(fresh[position]?.score ?? -1, 12);
      });
    }
  });
});
