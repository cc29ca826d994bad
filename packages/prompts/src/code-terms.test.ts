import { describe, expect, it } from 'vitest';
import { codeTerms } from './code-terms.js';

describe('codeTerms', () => {
  it('gives identifiers and numbers in lower case, and the parts of snake, camel and capital-run names', () => {
    expect(codeTerms('def parse_header(raw): return HTTPServer(raw, 42) # parseHeader')).toEqual([
      'def',
      'parse_header',
      'parse',
      'header',
      'raw',
      'return',
      'httpserver',
      'http',
      'server',
      'raw',
      '42',
      'parseheader',
      'parse',
      'header',
    ]);
  });

  it('gives nothing for punctuation and whitespace, and one term for a name of one part', () => {
    expect(codeTerms(' (){}[]:,.+-*/ \n\t')).toEqual([]);
    expect(codeTerms('_private __dunder__ x1')).toEqual(['_private', '__dunder__', 'x1', 'x', '1']);
  });
});
