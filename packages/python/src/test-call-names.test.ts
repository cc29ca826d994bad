import type { Parser } from 'web-tree-sitter';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadPythonParser } from './python-parser.js';
import { testCallNames, testReferences } from './test-call-names.js';

let parser: Parser;
beforeAll(async () => {
  parser = await loadPythonParser();
});

function namesOf(source: string): string[] {
  const tree = parser.parse(source);
  if (tree === null) throw new Error('no tree');
  try {
    return [...testCallNames(tree.rootNode)].sort();
  } finally {
    tree.delete();
  }
}

describe('testCallNames', () => {
  it("collects the callee names in the bodies of pytest's test functions (not their decorators)", () => {
    const source = `import pytest
from pkg import Grid, helper

def test_grid():
    grid = Grid(3)
    assert grid.cells() == helper.count(grid)
    check = lambda: pkg.mod.deep_call(1)

@pytest.mark.parametrize("x", [1])
def test_decorated(x):
    assert label(x)

class TestThings:
    def test_method(self):
        self.assertEqual(render(x), 1)

    def setup_method(self):
        not_a_test_call()

    class TestNested:
        def test_inner(self):
            inner_call()

class Helper:
    def test_not_collected(self):
        hidden()

class ChunkedTests(unittest.TestCase):
    def test_even(self):
        chunked([1, 2])

def helper_function():
    also_hidden()
`;
    expect(namesOf(source)).toEqual([
      'Grid',
      'assertEqual',
      'cells',
      'chunked',
      'count',
      'deep_call',
      'inner_call',
      'label',
      'render',
    ]);
  });
});

describe('testReferences', () => {
  it('also gives the attributes a test body reads, which is how a test reaches a property', () => {
    const tree = parser.parse(`def test_logger(app):
    app.logger.warning("x")
    assert app.config is not None

def helper(app):
    return app.hidden_attribute
`);
    if (tree === null) throw new Error('no tree');
    try {
      const { calls, attributes } = testReferences(tree.rootNode);
      expect([...calls].sort()).toEqual(['warning']);
      expect([...attributes].sort()).toEqual(['config', 'logger', 'warning']);
    } finally {
      tree.delete();
    }
  });
});
