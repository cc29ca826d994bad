import { describe, expect, it } from 'vitest';
import type { PreparedRepository } from '@repocod/runner';
import { describeTests, jobMessage, readJobMessage } from './job-message.js';

const repository = {
  entry: {
    name: 'flask',
    python: '3.11',
    packageRoot: '.',
    install: ['make build', { pip: ['-r', 'requirements.txt', '--editable', '.'] }],
    excludeNewer: '2024-09-01',
    buildInPlace: 'make inplace',
    blobsFrom: ['plotly==5.24.1'],
    importCheck: ['plotly'],
    absentFiles: [{ path: 'js/lib/x.js', why: 'built from TypeScript' }],
    testRoots: ['tests'],
    pytestArgs: [],
    deselect: [{ id: 'tests/test_a.py::test_b', reason: 'needs network' }],
    env: { A: '1' },
    timeoutSeconds: 600,
    url: 'https://github.com/pallets/flask',
    source: null,
    baseCommit: 'a'.repeat(40),
  },
  checkout: { name: 'flask', path: '/x', baseCommit: 'a'.repeat(40), commitTimestamp: '' },
  environment: { key: 'e'.repeat(64) },
  worktrees: [],
} as unknown as PreparedRepository;

describe('job messages', () => {
  it('come back from the wire as they went', () => {
    const message = jobMessage(
      {
        repository: 'flask',
        patches: ['diff'],
        tests: ['tests/test_a.py::test_c'],
        repeat: 3,
        plugins: ['repocod_coverage'],
        pluginInput: '{}',
      },
      repository,
    );
    expect(readJobMessage(JSON.parse(JSON.stringify(message)), 'j1')).toEqual(message);
    expect(message.baseCommit).toBe('a'.repeat(40));
    const whole = jobMessage({ repository: 'flask', patches: [], tests: 'all' }, repository);
    expect(readJobMessage(JSON.parse(JSON.stringify(whole)), 'j2').job.tests).toBe('all');
  });

  it('name the field that is wrong', () => {
    const message = JSON.parse(
      JSON.stringify(jobMessage({ repository: 'flask', patches: [], tests: 'all' }, repository)),
    );
    expect(() => readJobMessage({ ...message, job: { ...message.job, plugins: ['rm -rf'] } }, 'j3')).toThrow(
      'job j3: field job.plugins must be a list of repocod_coverage, repocod_mutate, repocod_collect, found ["rm -rf"]',
    );
    expect(() => readJobMessage({ ...message, entry: { ...message.entry, deselect: [{ id: 'x' }] } }, 'j4')).toThrow(
      'job j4: field entry.deselect[0].reason must be a string, found nothing',
    );
    expect(() => readJobMessage({ ...message, job: { ...message.job, repository: 'django' } }, 'j5')).toThrow(
      /job j5: field job.repository must be "flask" \(the job's repository is the entry's catalog name or its name\)/,
    );
    expect(() => readJobMessage({ ...message, entry: { ...message.entry, url: null, source: null } }, 'j6')).toThrow(
      'job j6: field entry.source must be a string, found null',
    );
    expect(() => readJobMessage({ ...message, entry: { ...message.entry, install: [{ pip: [1] }] } }, 'j7')).toThrow(
      'job j7: field entry.install must be a list of shell commands and {pip: [strings]} steps, found [{"pip":[1]}]',
    );
  });

  it("carry an era's entry: the commit it moved from, and the era's catalog name as the job's repository", () => {
    const era = {
      ...repository,
      entry: { ...repository.entry, baseCommit: 'b'.repeat(40), manifestCommit: 'a'.repeat(40) },
      checkout: { ...repository.checkout, name: `flask@${'b'.repeat(12)}`, baseCommit: 'b'.repeat(40) },
    } as unknown as PreparedRepository;
    const message = jobMessage({ repository: `flask@${'b'.repeat(12)}`, patches: [], tests: 'all' }, era);
    const read = readJobMessage(JSON.parse(JSON.stringify(message)), 'j8');
    expect(read).toEqual(message);
    expect(read.entry.manifestCommit).toBe('a'.repeat(40));
    // An evaluation's job names the repository as the release does; another era's name is refused.
    const wire = JSON.parse(JSON.stringify(message));
    expect(readJobMessage({ ...wire, job: { ...wire.job, repository: 'flask' } }, 'j9').job.repository).toBe('flask');
    expect(() =>
      readJobMessage({ ...wire, job: { ...wire.job, repository: `flask@${'c'.repeat(12)}` } }, 'j10'),
    ).toThrow(/job j10: field job.repository must be "flask"/);
  });

  it('describe their tests for people', () => {
    expect(describeTests({ repository: 'x', patches: [], tests: 'all' })).toBe('the whole suite');
    expect(describeTests({ repository: 'x', patches: [], tests: ['a'] })).toBe('1 test');
    expect(describeTests({ repository: 'x', patches: [], tests: ['a', 'b'] })).toBe('2 tests');
  });
});
