/**
 * The terms BM25 indexes code and queries by. A word of code is an identifier or a number; each is a term in lower
 * case, and an identifier made of parts (`snake_case`, `camelCase`, `HTTPServer`) also gives each part as a term,
 * so that `parse_header` matches a docstring's "header" and `parseHeader` alike. Punctuation, operators and
 * whitespace are not terms. Keywords are kept: they are frequent, so BM25's idf makes them weigh little.
 */
export function codeTerms(text: string): string[] {
  const terms: string[] = [];
  for (const [word] of text.matchAll(WORD)) {
    terms.push(word.toLowerCase());
    const parts = word.match(PART) ?? [];
    if (parts.length > 1) for (const part of parts) terms.push(part.toLowerCase());
  }
  return terms;
}

const WORD = /[A-Za-z_][A-Za-z0-9_]*|[0-9]+/g;
/** An identifier's parts: a run of capitals before a capitalized word (`HTTP` in `HTTPServer`), a word, digits. */
const PART = /[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+/g;
