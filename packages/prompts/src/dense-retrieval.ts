import type { RankedFunction } from './ranked-function.js';
import { rankingOrder } from './ranked-function.js';
import type { CorpusFunction } from './function-corpus.js';
import { PromptInputError } from './prompt-input-error.js';

/**
 * The `top` functions whose embeddings are nearest the query's by cosine similarity (the score), ties broken by file
 * then line. `vectors[i]` is the embedding of `corpus[i]`; a zero vector is similar to nothing (score 0).
 */
export function denseRanking(
  corpus: readonly CorpusFunction[],
  vectors: readonly (readonly number[])[],
  query: readonly number[],
  top: number,
): RankedFunction[] {
  if (vectors.length !== corpus.length)
    throw new PromptInputError(`${vectors.length} embedding(s) for ${corpus.length} function(s) of the corpus`);
  return corpus
    .map((fn, index) => ({ fn, score: cosine(vectors[index] ?? [], query) }))
    .sort(rankingOrder)
    .slice(0, top);
}

function cosine(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length)
    throw new PromptInputError(
      `embeddings of ${a.length} and ${b.length} dimensions cannot be compared; one model made both?`,
    );
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let index = 0; index < a.length; index++) {
    const x = a[index] ?? 0;
    const y = b[index] ?? 0;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}
