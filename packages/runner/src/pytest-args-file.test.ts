import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readsArgsFile } from './pytest-args-file.js';
import { runPytest } from './pytest-job.js';

const PROJECT_ROOT = resolve(new URL('../../..', import.meta.url).pathname);
const UV = resolve(PROJECT_ROOT, '.repocod/tools/py/bin/uv');

describe('node ids for an older pytest', () => {
  it('knows which pytest reads an @file', () => {
    expect(['8.2.0', '8.3.5', '9.0.3', '8.2.0.dev12'].map(readsArgsFile)).toEqual([true, true, true, true]);
    expect(['7.4.4', '8.1.1', '6.2.5'].map(readsArgsFile)).toEqual([false, false, false]);
    // A version it cannot read: the file, and the run says what went wrong.
    expect(readsArgsFile('unknown')).toBe(true);
  });

  it('runs exactly the listed tests, deselections kept, on pytest 7.4.4 (plotly.py pins it)', {
    timeout: 300_000,
  }, async () => {
    const folder = mkdtempSync(join(tmpdir(), 'repocod-pytest7-'));
    const venv = join(folder, 'venv');
    execFileSync(UV, ['venv', '--quiet', '--python', 'python3', venv]);
    const pins = ['pytest==7.4.4', 'pytest-reportlog==1.0.0', 'pytest-timeout==2.4.0'];
    // As the runner installs (environment.ts): uv's own roots are not the machine's, behind a TLS proxy.
    const install = [
      'pip',
      'install',
      '--quiet',
      '--no-config',
      '--system-certs',
      '--python',
      join(venv, 'bin/python'),
    ];
    execFileSync(UV, [...install, ...pins]);
    const project = join(folder, 'project');
    mkdirSync(join(project, 'tests'), { recursive: true });
    writeFileSync(
      join(project, 'tests/test_a.py'),
      'def test_one():\n    pass\n\ndef test_two():\n    assert False\n\ndef test_three():\n    pass\n',
    );
    writeFileSync(join(project, 'tests/test_b.py'), 'def test_other():\n    pass\n');
    const run = await runPytest({
      python: join(venv, 'bin/python'),
      projectDir: project,
      tests: [
        'tests/test_a.py::test_one',
        'tests/test_a.py::test_two',
        'tests/test_a.py::test_three',
        'tests/test_b.py::test_gone',
      ],
      testRoots: ['tests'],
      pytestArgs: ['-p', 'no:cacheprovider'],
      deselect: ['tests/test_a.py::test_three'],
      env: {},
      timeoutSeconds: 120,
    });
    expect(run.log).not.toContain('file or directory not found');
    expect(run.results.map((result) => [result.nodeId, result.outcome])).toEqual([
      ['tests/test_a.py::test_one', 'passed'],
      ['tests/test_a.py::test_two', 'failed'],
      ['tests/test_a.py::test_three', 'missing'],
      ['tests/test_b.py::test_gone', 'missing'],
    ]);
  });
});
