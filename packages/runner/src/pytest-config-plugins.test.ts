import { describe, expect, it } from 'vitest';
import { configuredPlugins } from './pytest-config-plugins.js';

const files = (entries: Record<string, string>) => new Map(Object.entries(entries));

describe('configuredPlugins', () => {
  it("reads pytest.ini's addopts: -p plugins and the options of known plugins, each at its line", () => {
    const ini =
      '[pytest]\naddopts =\n  --durations=10\n  -ra\n  # NOTE: coverage\n  -p pytest_cov\n  --cov\n' +
      '  --cov-config=.coveragerc\n  -pxdist -n 4 --timeout=30\n\ntestpaths = tests/\n';
    expect(configuredPlugins(files({ 'pytest.ini': ini }))).toEqual([
      { module: 'pytest_cov', file: 'pytest.ini', line: 6, via: '-p pytest_cov', distribution: 'pytest-cov' },
      { module: 'xdist', file: 'pytest.ini', line: 9, via: '-p xdist', distribution: 'pytest-xdist' },
      { module: 'pytest_timeout', file: 'pytest.ini', line: 9, via: '--timeout', distribution: 'pytest-timeout' },
    ]);
  });

  it('reads the one file pytest reads: pytest.ini even without its section, else the first with one', () => {
    const setupCfg = '[tool:pytest]\naddopts = --cov=pkg --reruns 2\n';
    const pyproject = '[project]\nname = "x"\n[tool.pytest.ini_options]\naddopts = ["--benchmark-skip", "-ra"]\n';
    expect(configuredPlugins(files({ 'pytest.ini': '', 'setup.cfg': setupCfg }))).toEqual([]);
    expect(configuredPlugins(files({ 'tox.ini': '[tox]\nenvlist = py\n', 'setup.cfg': setupCfg }))).toEqual([
      { module: 'pytest_cov', file: 'setup.cfg', line: 2, via: '--cov', distribution: 'pytest-cov' },
      {
        module: 'pytest_rerunfailures',
        file: 'setup.cfg',
        line: 2,
        via: '--reruns',
        distribution: 'pytest-rerunfailures',
      },
    ]);
    expect(configuredPlugins(files({ 'pyproject.toml': pyproject, 'setup.cfg': setupCfg }))).toEqual([
      {
        module: 'pytest_benchmark',
        file: 'pyproject.toml',
        line: 4,
        via: '--benchmark-skip',
        distribution: 'pytest-benchmark',
      },
    ]);
  });

  it("reads nothing when the entry's pytest_args replace addopts (-p no:NAME does not undo an addopts -p NAME)", () => {
    const ini = '[pytest]\naddopts = -p pytest_cov -p no:randomly --timeout 10 -p my_plugins.local\n';
    expect(configuredPlugins(files({ 'pytest.ini': ini }), ['-p', 'no:pytest_cov']).map((use) => use.module)).toEqual([
      'pytest_cov',
      'pytest_timeout',
      'my_plugins',
    ]);
    expect(configuredPlugins(files({ 'pytest.ini': ini }), ['-o', 'addopts=-ra'])).toEqual([]);
    expect(configuredPlugins(files({ 'pytest.ini': ini }), ['--override-ini=addopts='])).toEqual([]);
  });
});
