import type { Parser } from 'web-tree-sitter';
import type { TestReferences } from './test-call-names.js';
import { testReferences } from './test-call-names.js';

/**
 * The union of testReferences over a repository's test modules: every name its test functions call or
 * read. `texts` maps repository-relative paths to their text; `isTestFile` says which are test modules
 * (the extraction's test-code rule). A file that does not parse cleanly still gives what its tree holds:
 * REPOCOD's tree-sitter pass had no other choice either.
 */
export function repositoryTestReferences(
  parser: Parser,
  texts: ReadonlyMap<string, string>,
  isTestFile: (file: string) => boolean,
): TestReferences {
  const union: TestReferences = { calls: new Set(), attributes: new Set() };
  for (const [file, text] of texts) {
    if (!isTestFile(file)) continue;
    const tree = parser.parse(text);
    if (tree === null) continue;
    try {
      const { calls, attributes } = testReferences(tree.rootNode);
      for (const name of calls) union.calls.add(name);
      for (const name of attributes) union.attributes.add(name);
    } finally {
      tree.delete();
    }
  }
  return union;
}
