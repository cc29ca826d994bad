/**
 * Input a prompt cannot be made from: a target the corpus does not hold, embeddings that do not fit the corpus, a
 * setting given the wrong parts. What is wrong, and where, when it is a place in a file.
 */
export class PromptInputError extends Error {
  constructor(
    readonly reason: string,
    readonly file: string | null = null,
    readonly line: number | null = null,
  ) {
    super(file === null ? reason : `${file}${line === null ? '' : `:${line}`}: ${reason}`);
    this.name = 'PromptInputError';
  }
}
