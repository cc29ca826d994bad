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
      /job j5: field job.repository must be "flask" \(the job's repository is the entry's name\), found "django"/,
    );
    expect(() => readJobMessage({ ...message, entry: { ...message.entry, url: null, source: null } }, 'j6')).toThrow(
      'job j6: field entry.source must be a string, found null',
    );
    expect(() => readJobMessage({ ...message, entry: { ...message.entry, install: [{ pip: [1] }] } }, 'j7')).toThrow(
      'job j7: field entry.install must be a list of shell commands and {pip: [strings]} steps, found [{"pip":[1]}]',
    );
  });

  it('describe their tests for people', () => {
    expect(describeTests({ repository: 'x', patches: [], tests: 'all' })).toBe('the whole suite');
    expect(describeTests({ repository: 'x', patches: [], tests: ['a'] })).toBe('1 test');
    expect(describeTests({ repository: 'x', patches: [], tests: ['a', 'b'] })).toBe('2 tests');
  });
});
