import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseReportLog, resultsFor, withConftestLoadError } from './pytest-report.js';

const PROJECT_ROOT = resolve(new URL('../../..', import.meta.url).pathname);
const TOOLS_PYTHON = resolve(PROJECT_ROOT, '.repocod/tools/py/bin/python');

/** Runs real pytest with pytest-reportlog on the given test files and returns the report log's text. */
function runPytest(files: Record<string, string>, args: readonly string[] = []): string {
  const root = mkdtempSync(join(tmpdir(), 'repocod-report-'));
  for (const [name, source] of Object.entries(files)) writeFileSync(join(root, name), source);
  const log = join(root, 'report.jsonl');
  const python = existsSync(TOOLS_PYTHON) ? TOOLS_PYTHON : 'python3';
  spawnSync(python, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', `--report-log=${log}`, ...args], {
    cwd: root,
    encoding: 'utf8',
  });
  return readFileSync(log, 'utf8');
}

const OUTCOMES = `
import pytest

@pytest.fixture
def broken():
    raise RuntimeError("fixture")

@pytest.fixture
def bad_teardown():
    yield
    raise RuntimeError("teardown")

def test_pass(): pass
def test_fail(): assert 1 == 2
def test_setup_error(broken): pass
def test_teardown_error(bad_teardown): pass
@pytest.mark.skip(reason="no")
def test_skip(): pass
def test_skip_inside(): pytest.skip("later")
@pytest.mark.xfail(reason="known")
def test_xfail(): assert False
@pytest.mark.xfail(reason="known")
def test_xpass(): pass
@pytest.mark.parametrize("n", [1, 2])
def test_param(n): assert n == 1
`;

describe('parseReportLog on real pytest output', () => {
  it('gives every outcome kind, with missing for requested tests pytest never ran', () => {
    const report = parseReportLog(runPytest({ 'test_outcomes.py': OUTCOMES }));
    const requested = [
      'test_outcomes.py::test_pass',
      'test_outcomes.py::test_fail',
      'test_outcomes.py::test_setup_error',
      'test_outcomes.py::test_teardown_error',
      'test_outcomes.py::test_skip',
      'test_outcomes.py::test_skip_inside',
      'test_outcomes.py::test_xfail',
      'test_outcomes.py::test_xpass',
      'test_outcomes.py::test_param[1]',
      'test_outcomes.py::test_param[2]',
      'test_outcomes.py::test_absent',
    ];
    expect(resultsFor(report, requested).map((result) => result.outcome)).toEqual([
      'passed',
      'failed',
      'error',
      'error',
      'skipped',
      'skipped',
      'xfailed',
      'xpassed',
      'passed',
      'failed',
      'missing',
    ]);
    expect(report.finished).toBe(true);
    expect(report.exitStatus).toBe(1);
    expect(resultsFor(report, ['test_outcomes.py::test_fail'])[0]?.message).toContain('assert 1 == 2');
    expect(resultsFor(report, 'all')).toHaveLength(10);
    // A test asked for twice has one result (the catalog keys results by run and node id).
    const twice = resultsFor(report, ['test_outcomes.py::test_fail', 'test_outcomes.py::test_fail']);
    expect(twice.map((result) => [result.nodeId, result.outcome])).toEqual([['test_outcomes.py::test_fail', 'failed']]);
  });

  it('reports a module that fails to import as a collection error', () => {
    const report = parseReportLog(
      runPytest({
        'test_ok.py': 'def test_ok(): pass\n',
        'test_broken.py': 'import no_such_module\n\ndef test_x(): pass\n',
      }),
    );
    expect(report.collectionErrors.map((error) => error.nodeId)).toEqual(['test_broken.py']);
    expect(report.collectionErrors[0]?.message).toContain('no_such_module');
    // A requested test of the broken module is an error with its message; one of no module is missing.
    const files = {
      'test_ok.py': 'def test_ok(): pass\n',
      'test_broken.py': 'import no_such_module\n\ndef test_x(): pass\n',
    };
    const results = resultsFor(parseReportLog(runPytest(files, ['--continue-on-collection-errors'])), [
      'test_ok.py::test_ok',
      'test_broken.py::test_x',
      'test_broken_other.py::test_x',
    ]);
    expect(results.map((result) => result.outcome)).toEqual(['passed', 'error', 'missing']);
    expect(results[1]?.message).toMatch(/^collection error of test_broken\.py: .*no_such_module/s);
  });

  it('makes a conftest that fails to import a collection error of its folder: every test there errors', () => {
    const root = mkdtempSync(join(tmpdir(), 'repocod-report-'));
    mkdirSync(join(root, 'tests'));
    writeFileSync(join(root, 'tests/conftest.py'), 'DECORATE = None\n\n@DECORATE\ndef helper(): pass\n');
    writeFileSync(join(root, 'tests/test_a.py'), 'def test_a(): pass\n');
    const log = join(root, 'report.jsonl');
    const python = existsSync(TOOLS_PYTHON) ? TOOLS_PYTHON : 'python3';
    const run = spawnSync(python, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', `--report-log=${log}`, 'tests'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(run.status).toBe(4);
    const logged = parseReportLog(existsSync(log) ? readFileSync(log, 'utf8') : '');
    expect(logged.collectionErrors).toEqual([]);
    const report = withConftestLoadError(logged, run.stdout + run.stderr, root);
    expect(report.collectionErrors.map((error) => error.nodeId)).toEqual(['tests']);
    const [result] = resultsFor(report, ['tests/test_a.py::test_a']);
    expect(result?.outcome).toBe('error');
    expect(result?.message).toMatch(/^collection error of tests: ImportError while loading conftest[\s\S]*NoneType/);
    // Output without that line (a usage error, say) adds nothing.
    expect(withConftestLoadError(logged, 'ERROR: usage: pytest [options]\n', root).collectionErrors).toEqual([]);
  });

  it('keeps what a killed run wrote before its truncated last line', () => {
    const text = runPytest({ 'test_two.py': 'def test_a(): pass\ndef test_b(): pass\n' });
    const cut = `${text.slice(0, text.indexOf('test_two.py::test_b'))}{"nodeid": "test_two.py::te`;
    const report = parseReportLog(cut);
    expect(report.finished).toBe(false);
    expect(resultsFor(report, ['test_two.py::test_a', 'test_two.py::test_b']).map((result) => result.outcome)).toEqual([
      'passed',
      'missing',
    ]);
  });
});
