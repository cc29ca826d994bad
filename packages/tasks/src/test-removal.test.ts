import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { loadPythonParser } from '@repocod/python';
import { describe, expect, it } from 'vitest';
import { codePatches } from './code-patches.js';
import { testFileModel } from './test-file-model.js';
import { indexedBaseResolver } from './indexed-base-resolver.js';
import { buildRepositoryIndex } from './repository-index.js';
import { definingQualname, definingTest, testLocation, testPatches } from './test-removal.js';

const TOOLS_PYTHON = resolve(import.meta.dirname, '../../../.repocod/tools/py/bin/python');

/** The node ids pytest collects in `folder` (run by the test tools' pytest). */
function collected(folder: string): string[] {
  const run = spawnSync(TOOLS_PYTHON, ['-m', 'pytest', '--collect-only', '-q', '-p', 'no:cacheprovider'], {
    cwd: folder,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`pytest --collect-only exited ${run.status}:\n${run.stdout}${run.stderr}`);
  return run.stdout
    .split('\n')
    .filter((line) => line.includes('::'))
    .sort();
}

/** A git repository holding `files`; returns its folder. */
function repository(files: Record<string, string>): string {
  const folder = mkdtempSync(join(tmpdir(), 'tasks-patch-'));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, file)), { recursive: true });
    writeFileSync(join(folder, file), text);
  }
  execFileSync('git', ['init', '-q'], { cwd: folder });
  return folder;
}

function apply(folder: string, patch: string): void {
  writeFileSync(join(folder, 'p.diff'), patch);
  execFileSync('git', ['apply', '--check', 'p.diff'], { cwd: folder });
  execFileSync('git', ['apply', 'p.diff'], { cwd: folder });
}

const TESTS = [
  'import pytest',
  '',
  '',
  '@pytest.mark.parametrize("x", [1, 2])',
  'def test_one(x):',
  '    assert x',
  '',
  '',
  'def test_two():',
  '    assert True',
  '',
  '',
  'class TestThing:',
  '    # a comment that is not a statement',
  '    def test_a(self):',
  '        assert 1',
  '',
  '    @pytest.mark.slow',
  '    def test_b(self):',
  '        assert 2',
  '',
  '',
  'class TestKept:',
  '    """Docstring."""',
  '',
  '    def test_c(self):',
  '        assert 3',
  '',
].join('\n');

describe('test patches', () => {
  it(
    'remove whole test definitions with their decorators, keep an emptied class valid, and ' + 'restore the bytes',
    async () => {
      const parser = await loadPythonParser();
      const models = new Map([['tests/test_m.py', testFileModel(parser, 'tests/test_m.py', TESTS)]]);
      const ids = [
        'tests/test_m.py::test_one[1]',
        'tests/test_m.py::test_one[2]',
        'tests/test_m.py::TestThing::test_a',
        'tests/test_m.py::TestThing::test_b',
        'tests/test_m.py::TestKept::test_c',
        'tests/test_m.py::test_gone',
      ];
      const pair = testPatches(models, ids);
      expect(pair.missing).toEqual(['tests/test_m.py::test_gone']);
      const folder = repository({ 'tests/test_m.py': TESTS });
      apply(folder, pair.pre);
      const pre = readFileSync(join(folder, 'tests/test_m.py'), 'utf8');
      expect(pre).not.toMatch(/test_one|test_a|test_b|test_c|parametrize|mark\.slow/);
      expect(pre).toContain('def test_two():');
      expect(pre).toContain(
        'class TestThing:\n    # a comment that is not a statement\n\n    pass  # tests of TestThing removed for the ' +
          'task\n',
      );
      expect(pre).toContain('class TestKept:\n    """Docstring."""\n');
      execFileSync('python3', [
        '-c',
        'import ast, sys; ast.parse(open(sys.argv[1]).read())',
        join(folder, 'tests/test_m.py'),
      ]);
      apply(folder, pair.gold);
      expect(readFileSync(join(folder, 'tests/test_m.py'), 'utf8')).toBe(TESTS);
    },
  );

  it('place a test a parameterizing decorator named on the test whose name it extends', async () => {
    const parser = await loadPythonParser();
    const file = 'tests/test_arrow_dataset.py';
    const text = `from parameterized import parameterized

@parameterized.named_parameters([{"testcase_name": "in_memory", "in_memory": True}])
class BaseDatasetTest(TestCase):
    def test_tf(self, in_memory):
        pass

    def test_tf_label(self, in_memory):
        pass
`;
    const models = new Map([[file, testFileModel(parser, file, text)]]);
    const at = (qualname: string) => definingTest(models, { file, qualname });
    expect(at('BaseDatasetTest.test_tf_label_in_memory')).toEqual({ file, qualname: 'BaseDatasetTest.test_tf_label' });
    expect(at('BaseDatasetTest.test_tf_in_memory')).toEqual({ file, qualname: 'BaseDatasetTest.test_tf' });
    // Nothing it extends: still not found.
    expect(at('BaseDatasetTest.test_other_in_memory')).toBeNull();
  });

  it("read node ids relative to the manifest's package root, and patch the repository's files", async () => {
    // plotly.py: pytest runs in packages/python/plotly, so its node ids start at plotly/tests/.
    const parser = await loadPythonParser();
    const file = 'packages/python/plotly/plotly/tests/test_m.py';
    const models = new Map([[file, testFileModel(parser, file, TESTS)]]);
    const ids = ['plotly/tests/test_m.py::TestThing::test_a', 'plotly/tests/test_m.py::test_gone'];
    const pair = testPatches(models, ids, undefined, 'packages/python/plotly');
    expect(pair.missing).toEqual([`${file}::test_gone`]);
    const folder = repository({ [file]: TESTS });
    apply(folder, pair.pre);
    expect(readFileSync(join(folder, file), 'utf8')).not.toContain('def test_a');
    apply(folder, pair.gold);
    expect(readFileSync(join(folder, file), 'utf8')).toBe(TESTS);
    // Without the package root the files are not found at all.
    expect(testPatches(models, ids).missing).toHaveLength(2);
  });

  it('leave a doctest where it is: in the docstring the prompt shows', () => {
    const pair = testPatches(new Map(), [
      'astropy/stats/funcs.py::astropy.stats.funcs.bootstrap',
      'docs/stats/circ.rst::circ.rst',
    ]);
    expect(pair).toEqual({ pre: '', gold: '', missing: [] });
  });

  it('keep a branch or a try valid when every test in it goes (sympy defines tests under if/elif)', async () => {
    const text = [
      'import sys',
      '',
      'if sys.version_info > (9,):',
      '    def test_future():',
      '        assert True',
      'elif sys.platform:',
      '    # only tests here',
      '    def test_here():',
      '        assert True',
      'else:',
      '    def test_never():',
      '        assert True',
      '',
      'try:',
      '    import json',
      '',
      '    def test_json():',
      '        assert json',
      'except ImportError:',
      '    pass',
      '',
    ].join('\n');
    const parser = await loadPythonParser();
    const models = new Map([['tests/test_b.py', testFileModel(parser, 'tests/test_b.py', text)]]);
    const pair = testPatches(models, ['tests/test_b.py::test_here', 'tests/test_b.py::test_json']);
    const folder = repository({ 'tests/test_b.py': text });
    apply(folder, pair.pre);
    const pre = readFileSync(join(folder, 'tests/test_b.py'), 'utf8');
    expect(pre).toContain(
      'elif sys.platform:\n    # only tests here\n    pass  # tests of the block at line 6 removed for ' +
        'the task\nelse:',
    );
    expect(pre).toContain('try:\n    import json\n\nexcept ImportError:');
    expect(pre).toContain('def test_future():');
    execFileSync('python3', [
      '-c',
      'import ast, sys; ast.parse(open(sys.argv[1]).read())',
      join(folder, 'tests/test_b.py'),
    ]);
    apply(folder, pair.gold);
    expect(readFileSync(join(folder, 'tests/test_b.py'), 'utf8')).toBe(text);
    expect(collected(folder)).toEqual(['tests/test_b.py::test_here', 'tests/test_b.py::test_json']);
  });

  it(
    'remove an inherited test where it is defined, along the method resolution order, and stop at a base from ' +
      'elsewhere',
    async () => {
      const text = [
        'import unittest',
        'from helpers import Mixin',
        '',
        '',
        'class SharedTests:',
        '    def test_color(self):',
        '        assert 1',
        '',
        '    def test_size(self):',
        '        assert 2',
        '',
        '',
        'class SharedAggTests(SharedTests):',
        '    def test_size(self):',
        '        assert 3',
        '',
        '',
        'class TestBar(SharedAggTests, unittest.TestCase):',
        '    def test_own(self):',
        '        assert 4',
        '',
        '',
        'class TestLine(Mixin, SharedTests):',
        '    pass',
        '',
      ].join('\n');
      const parser = await loadPythonParser();
      const model = testFileModel(parser, 'tests/test_i.py', text);
      expect(definingQualname(model, 'TestBar.test_color')).toBe('SharedTests.test_color');
      // SharedAggTests overrides test_size: its own comes first in TestBar's order.
      expect(definingQualname(model, 'TestBar.test_size')).toBe('SharedAggTests.test_size');
      // Mixin (another module) comes first in TestLine's order and may define the test.
      expect(definingQualname(model, 'TestLine.test_color')).toBeNull();
      const ids = [
        'tests/test_i.py::TestBar::test_color',
        'tests/test_i.py::TestBar::test_size',
        'tests/test_i.py::TestBar::test_own',
        'tests/test_i.py::TestLine::test_color',
      ];
      const pair = testPatches(new Map([['tests/test_i.py', model]]), ids);
      expect(pair.missing).toEqual(['tests/test_i.py::TestLine.test_color']);
      const folder = repository({ 'tests/test_i.py': text });
      apply(folder, pair.pre);
      const pre = readFileSync(join(folder, 'tests/test_i.py'), 'utf8');
      expect(pre).not.toMatch(/test_color|test_own|assert [134]/);
      // SharedTests.test_size stays: TestBar runs SharedAggTests' version.
      expect(pre).toContain('class SharedTests:\n\n    def test_size(self):\n        assert 2\n');
      expect(pre).toContain(
        'class SharedAggTests(SharedTests):\n    pass  # tests of SharedAggTests removed for the task\n',
      );
      execFileSync('python3', [
        '-c',
        'import ast, sys; ast.parse(open(sys.argv[1]).read())',
        join(folder, 'tests/test_i.py'),
      ]);
      apply(folder, pair.gold);
      expect(readFileSync(join(folder, 'tests/test_i.py'), 'utf8')).toBe(text);
    },
  );

  it(
    'remove a test inherited from a class of another module in that module, through absolute, relative and attribute ' +
      'imports',
    async () => {
      const files: Record<string, string> = {
        'pkg/__init__.py': '',
        'pkg/tests/__init__.py': '',
        'pkg/tests/test_backends.py': [
          'class CFEncodedBase:',
          '    def test_write(self):',
          '        assert 1',
          '',
          '    def test_read(self):',
          '        assert 2',
          '',
          '',
          'class TestNetCDF(CFEncodedBase):',
          '    def test_engine(self):',
          '        assert 3',
          '',
        ].join('\n'),
        'pkg/tests/helpers.py': ['class Shared:', '    def test_shared(self):', '        assert 4', ''].join('\n'),
        'pkg/tests/test_conventions.py': [
          'from string import Formatter',
          'from pkg.tests.test_backends import CFEncodedBase',
          'from . import helpers',
          'from .helpers import Shared as Base',
          '',
          '',
          'class TestCFEncodedDataStore(CFEncodedBase):',
          '    def test_own(self):',
          '        assert 5',
          '',
          '',
          'class TestViaModule(helpers.Shared):',
          '    pass',
          '',
          '',
          'class TestViaAlias(Base):',
          '    pass',
          '',
          '',
          'class TestMachine(Formatter, CFEncodedBase):',
          '    pass',
          '',
        ].join('\n'),
      };
      const parser = await loadPythonParser();
      const texts = new Map(Object.entries(files));
      const models = new Map([...texts].map(([file, text]) => [file, testFileModel(parser, file, text)]));
      const resolveBase = indexedBaseResolver(buildRepositoryIndex(parser, texts));
      const conventions = 'pkg/tests/test_conventions.py';
      expect(
        definingTest(models, { file: conventions, qualname: 'TestCFEncodedDataStore.test_write' }, resolveBase),
      ).toEqual({ file: 'pkg/tests/test_backends.py', qualname: 'CFEncodedBase.test_write' });
      expect(definingTest(models, { file: conventions, qualname: 'TestViaModule.test_shared' }, resolveBase)).toEqual({
        file: 'pkg/tests/helpers.py',
        qualname: 'Shared.test_shared',
      });
      expect(definingTest(models, { file: conventions, qualname: 'TestViaAlias.test_shared' }, resolveBase)).toEqual({
        file: 'pkg/tests/helpers.py',
        qualname: 'Shared.test_shared',
      });
      // A third-party base comes first in TestMachine's order and may define the test: not placed.
      expect(definingTest(models, { file: conventions, qualname: 'TestMachine.test_write' }, resolveBase)).toBeNull();
      // Without the resolver, only the file's own classes are known.
      expect(definingTest(models, { file: conventions, qualname: 'TestCFEncodedDataStore.test_write' })).toBeNull();

      const ids = [
        `${conventions}::TestCFEncodedDataStore::test_write`,
        `${conventions}::TestCFEncodedDataStore::test_own`,
        `${conventions}::TestViaAlias::test_shared`,
      ];
      const pair = testPatches(models, ids, resolveBase);
      expect(pair.missing).toEqual([]);
      const folder = repository(files);
      const before = collected(folder);
      apply(folder, pair.pre);
      const pre = collected(folder);
      // Removed where defined: every class inheriting them loses them, in both modules.
      expect(before.filter((id) => !pre.includes(id))).toEqual([
        'pkg/tests/test_backends.py::TestNetCDF::test_write',
        'pkg/tests/test_conventions.py::TestCFEncodedDataStore::test_own',
        'pkg/tests/test_conventions.py::TestCFEncodedDataStore::test_write',
        'pkg/tests/test_conventions.py::TestMachine::test_write',
        'pkg/tests/test_conventions.py::TestViaAlias::test_shared',
        'pkg/tests/test_conventions.py::TestViaModule::test_shared',
      ]);
      apply(folder, pair.gold);
      expect(collected(folder)).toEqual(before);
      for (const [file, text] of Object.entries(files)) expect(readFileSync(join(folder, file), 'utf8')).toBe(text);
    },
  );

  it('splits node ids into file and qualified test name', () => {
    expect(testLocation('tests/a.py::TestX::TestY::test_z[p-q::r]')).toEqual({
      file: 'tests/a.py',
      qualname: 'TestX.TestY.test_z',
    });
  });
});

describe('code patches', () => {
  it('delete the canonical solution only, and the gold patch restores it', () => {
    const source =
      '@decorator\ndef f(a):\n    """Doc.\n\n    More."""\n    x = a + 1\n    return x\n\n\ndef g():\n    pass\n';
    const pair = codePatches(
      {
        file: 'm.py',
        qualname: 'f',
        definitionSpan: { start: 1, end: 7 },
        signatureSpan: { start: 2, end: 2 },
        docstringSpan: { start: 3, end: 5 },
      },
      source,
    );
    const folder = repository({ 'm.py': source });
    apply(folder, pair.pre);
    expect(readFileSync(join(folder, 'm.py'), 'utf8')).toBe(
      '@decorator\ndef f(a):\n    """Doc.\n\n    More."""\n\n\ndef g():\n    pass\n',
    );
    apply(folder, pair.gold);
    expect(readFileSync(join(folder, 'm.py'), 'utf8')).toBe(source);
  });
});
