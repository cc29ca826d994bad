import type { StoredTask, StoredValidation } from '@repocod/catalog';
import type { BaselineStatus, BaselineTest } from '@repocod/core';
import { describe, expect, it } from 'vitest';
import type { RebuildRecordInputs } from './rebuild-record.js';
import { buildRebuildRecord, formatRecordLines, formatRecordMeta, miningBehindTasks } from './rebuild-record.js';
import { taskHash } from '@repocod/validate';

function task(instanceId: string, overrides: Partial<StoredTask> = {}): StoredTask {
  return {
    instanceId,
    repository: 'demo',
    functionId: `fn-${instanceId}`,
    file: 'pkg/mod.py',
    qualname: instanceId.split('.').at(-1) ?? instanceId,
    repo: 'demo',
    baseCommit: 'c'.repeat(40),
    baseCommitTimestamp: '2024-09-01T10:00:00Z',
    prompt: 'def f():\n    """Doc."""\n',
    solution: '    return 1\n',
    promptLines: 2,
    solutionLines: 1,
    promptTokens: 9,
    solutionTokens: 3,
    complexity: 1,
    level: 'self-contained',
    levelMode: 'deps',
    levels: { deps: { level: 'self-contained', calls: [] }, 'repocod-v1': { level: 'file-level', calls: [] } },
    dependencies: [],
    failToPass: ['tests/test_b.py::test_b', 'tests/test_a.py::test_a'],
    problemCode: '',
    problemTest: '',
    preCode: `pre ${instanceId}`,
    goldCode: `gold ${instanceId}`,
    preTest: '',
    goldTest: '',
    checks: {
      roundTrip: true,
      applies: true,
      collects: true,
      bodyNeededAtCollection: false,
      testsNotFound: [],
      messages: [],
    },
    checksPassed: true,
    builtAt: new Date(0),
    ...overrides,
  };
}

function validation(
  of: StoredTask,
  status: StoredValidation['status'],
  at: number,
  overrides: Partial<StoredValidation> = {},
): StoredValidation {
  return {
    instanceId: of.instanceId,
    taskHash: taskHash(of),
    validationKey: `key-${at}`,
    repository: 'demo',
    status,
    checks: [],
    failToPass: of.failToPass,
    flakyTests: [],
    droppedTests: [],
    toolVersion: `repocod-kit 0.1.0 (git ${at})`,
    pythonVersion: '3.11.9',
    packagesHash: 'packages-hash',
    environmentKey: 'env-key',
    runIds: [],
    passingWithoutBody: [],
    withoutBodyComplete: false,
    goldFrom: 'baseline',
    goldBaselineKey: 'mining-key',
    repeat: 3,
    seconds: 1,
    validatedAt: new Date(at),
    ...overrides,
  };
}

function inputs(overrides: Partial<RebuildRecordInputs> = {}): RebuildRecordInputs {
  return {
    repository: 'demo',
    toolVersion: 'repocod-kit 0.1.0',
    manifestBaseCommit: null,
    tasks: [],
    selection: null,
    validations: [],
    environmentKey: 'env-key',
    marker: null,
    candidates: 0,
    baseline: null,
    mined: [],
    stageTimes: [],
    runSeconds: [],
    ...overrides,
  };
}

describe('buildRebuildRecord', () => {
  const passed = task('demo-pkg.mod.passed');
  const failed = task('demo-pkg.mod.failed', { level: 'repo-level', checksPassed: false });
  const stale = task('demo-pkg.mod.stale');
  const unjudged = task('demo-pkg.mod.unjudged');
  const unselected = task('demo-pkg.mod.unselected', { level: 'file-level' });
  const all = [unselected, stale, passed, unjudged, failed];
  const picked = new Set([passed, failed, stale, unjudged].map((t) => t.instanceId));
  const selection = { selectionId: 'sel-1', instanceIds: picked };
  const validations = [
    validation(passed, 'failed', 1_000),
    validation(passed, 'passed', 2_000),
    validation(failed, 'failed', 1_500),
    // Validated as it was before a rebuild changed its tests: says nothing of the task now.
    validation(stale, 'passed', 3_000, { taskHash: 'an-older-build' }),
    validation(unjudged, 'infra-error', 2_500),
    validation(unselected, 'passed', 4_000),
  ];

  it('gives a line per task by instance id, fields in order, tests sorted, valid from the current verdict', () => {
    const record = buildRebuildRecord(inputs({ tasks: all, selection, validations }));
    // A task the selection does not pick (a pick that failed and was replaced) keeps its own verdict.
    expect(record.lines.map((line) => [line.instance_id, line.selected, line.valid])).toEqual([
      ['demo-pkg.mod.failed', true, false],
      ['demo-pkg.mod.passed', true, true],
      ['demo-pkg.mod.stale', true, null],
      ['demo-pkg.mod.unjudged', true, null],
      ['demo-pkg.mod.unselected', false, true],
    ]);
    const [first] = formatRecordLines(record.lines).split('\n');
    expect(Object.keys(JSON.parse(first ?? '{}') as object)).toEqual([
      ...['instance_id', 'repository', 'file', 'qualname', 'function_name', 'level', 'level_mode', 'levels'],
      'prompt_lines',
      ...['solution_lines'],
      ...['prompt_tokens', 'solution_tokens', 'cc', 'fail_to_pass', 'selected', 'valid'],
    ]);
    expect(record.lines[0]?.fail_to_pass).toEqual(['tests/test_a.py::test_a', 'tests/test_b.py::test_b']);
    expect(record.meta.validated).toEqual({ passed: 2, failed: 1 });
    expect(record.meta.validated_with).toBe('repocod-kit 0.1.0 (git 4000)');
    expect(record.meta.made_with).toBeNull();
    const madeWith = { tool: 'repocod-kit 0.1.0 (git abc)', checkpoints: new Map([['demo', 'digest']]) };
    expect(buildRebuildRecord(inputs({ tasks: all, selection, validations, madeWith })).meta.made_with).toEqual({
      tool: 'repocod-kit 0.1.0 (git abc)',
      checkpoint: 'digest',
    });
    const byLevel = { 'self-contained': 3, 'file-level': 1, 'repo-level': 1 };
    const none = { 'self-contained': 0, 'file-level': 0, 'repo-level': 0 };
    expect(record.meta.tasks).toEqual({
      total: 5,
      level_mode: 'deps',
      by_level: byLevel,
      by_level_mode: {
        'repocod-v1': { ...none, 'file-level': 5 },
        'repocod-v4': none,
        deps: { ...none, 'self-contained': 5 },
      },
      passing_checks: 4,
    });
    expect(record.lines[0]?.levels).toEqual({ 'repocod-v1': 'file-level', 'repocod-v4': null, deps: 'self-contained' });
  });

  it('has every task unselected without a selection, and the same bytes whatever order the catalog gave', () => {
    const none = buildRebuildRecord(inputs({ tasks: all, validations }));
    expect(none.lines.every((line) => line.selected === null)).toBe(true);
    expect(none.lines.map((line) => line.valid)).toEqual([false, true, null, null, true]);
    expect(none.meta.selection).toBeNull();
    const a = buildRebuildRecord(inputs({ tasks: all, selection, validations }));
    const reversed = { tasks: [...all].reverse(), selection, validations: [...validations].reverse() };
    const b = buildRebuildRecord(inputs(reversed));
    expect(formatRecordLines(b.lines)).toBe(formatRecordLines(a.lines));
    expect(formatRecordMeta(b.meta)).toBe(formatRecordMeta(a.meta));
  });

  it('takes the environment from its marker, else what the validations stored for that environment', () => {
    const withoutMarker = buildRebuildRecord(inputs({ tasks: all, selection, validations })).meta.environment;
    expect(withoutMarker).toEqual({
      key: 'env-key',
      installer: null,
      resolved_as_of: null,
      build_seconds: null,
      python_version: '3.11.9',
      packages_hash: 'packages-hash',
      packages: null,
    });
    const marker = {
      format: 'repocod-env-marker/1' as const,
      name: 'demo',
      key: 'env-key',
      recipeHash: 'r',
      baseCommit: null,
      installer: 'uv' as const,
      interpreter: '/usr/bin/python3.11',
      pythonVersion: '3.11.10',
      seedPackages: [],
      harnessPackages: [],
      packages: ['pytest==8.3.3', 'coverage==7.6.1'],
      packagesHash: 'marker-hash',
      resolvedAsOf: '2024-09-01T00:00:00Z',
      builtAt: '2024-09-01T00:00:00Z',
      buildSeconds: 3,
    };
    expect(buildRebuildRecord(inputs({ marker })).meta.environment).toEqual({
      key: 'env-key',
      installer: 'uv',
      resolved_as_of: '2024-09-01T00:00:00Z',
      build_seconds: 3,
      python_version: '3.11.10',
      packages_hash: 'marker-hash',
      packages: ['coverage==7.6.1', 'pytest==8.3.3'],
    });
    // A marker of another environment (rebuilt since) is not this one's.
    expect(buildRebuildRecord(inputs({ marker: { ...marker, key: 'other' } })).meta.environment.installer).toBeNull();
  });

  it("names the manifest's commit only when the tasks were built on another tree (a stand-in)", () => {
    const tasks = [task('demo-pkg.mod.passed')];
    const built = tasks[0]?.baseCommit ?? '';
    expect(buildRebuildRecord(inputs({ tasks, manifestBaseCommit: built })).meta.stands_in_for).toBeNull();
    expect(buildRebuildRecord(inputs({ tasks })).meta.stands_in_for).toBeNull();
    const upstream = 'd'.repeat(40);
    const standIn = buildRebuildRecord(inputs({ tasks, manifestBaseCommit: upstream })).meta;
    expect(standIn.base_commit).toBe(built);
    expect(standIn.stands_in_for).toBe(upstream);
    // Nothing built, nothing to stand in for.
    expect(buildRebuildRecord(inputs({ manifestBaseCommit: upstream })).meta.stands_in_for).toBeNull();
  });

  it('counts the baseline by status and lists the not passing tests that wanted a network', () => {
    const row = (nodeId: string, status: BaselineStatus, reason: string | null): BaselineTest => ({
      ...{ nodeId, status, reason, seconds: 0.1 },
      outcomes: status === 'passing' ? ['passed'] : ['failed'],
    });
    const baseline = [
      row('tests/test_hub.py::test_load_remote', 'not-passing', 'ConnectionError: Max retries exceeded with url: /x'),
      row('tests/test_hub.py::test_dns', 'not-passing', 'OSError: [Errno -3] Temporary failure in name resolution'),
      row('tests/test_font.py::test_font', 'not-passing', 'FileNotFoundError: no font named Arial'),
      row('tests/test_core.py::test_sum', 'passing', null),
      row('tests/test_core.py::test_time', 'flaky', 'failed in 1 of 3 runs'),
    ];
    expect(buildRebuildRecord(inputs({ baseline })).meta.baseline).toEqual({
      ...{ runs: 1, tests: 5, passing: 1, flaky: 1, not_passing: 3 },
      network_bound: ['tests/test_hub.py::test_dns', 'tests/test_hub.py::test_load_remote'],
    });
  });

  it("rounds stage times to a tenth of a second, leaves unrecorded stages null and sums the runner's jobs", () => {
    const finishedAt = new Date(0);
    const stageTimes = [
      { repository: 'demo', stage: 'mine', seconds: 12.345, finishedAt },
      { repository: 'demo', stage: 'validate', seconds: 0.04, finishedAt },
    ];
    const meta = buildRebuildRecord(inputs({ stageTimes })).meta;
    expect(meta.stage_seconds).toEqual({ prepare: null, extract: null, mine: 12.3, tasks: null, validate: 0 });
    expect(meta.runner).toEqual({ jobs: 0, seconds: 0 });
    expect(buildRebuildRecord(inputs({ runSeconds: [12.4, 0.3, 100.1] })).meta.runner).toEqual({
      jobs: 3,
      seconds: 113,
    });
  });
});

describe('a fresh record (--changed-since)', () => {
  const cutoff = '2025-06-01T00:00:00Z';
  const newer = task('demo-pkg.mod.newer', { functionId: 'fn-newer' });
  const newest = task('demo-pkg.mod.newest', { functionId: 'fn-newest' });
  const date = (functionId: string, at: string | null) => ({
    functionId,
    bodyCommit: at === null ? null : `commit-${functionId}`,
    bodyChangedAt: at === null ? null : new Date(at),
  });
  const bodyDates = new Map(
    [
      date('fn-newer', '2025-07-01T10:00:00.250Z'),
      date('fn-newest', '2026-01-02T03:04:05Z'),
      date('fn-older', '2024-02-01T00:00:00Z'),
      date('fn-no-code', null),
    ].map((row) => [row.functionId, row]),
  );
  const freshness = { cutoff, bodyDates, candidateIds: ['fn-newer', 'fn-newest', 'fn-older', 'fn-no-code'] };

  it("ends each line with its body's commit and date, and counts the candidates under the cutoff", () => {
    const record = buildRebuildRecord(inputs({ tasks: [newest, newer], freshness }));
    const [first] = formatRecordLines(record.lines).split('\n');
    expect(Object.keys(JSON.parse(first ?? '{}') as object).slice(-3)).toEqual([
      'valid',
      'body_commit',
      'body_changed_at',
    ]);
    expect(record.lines.map((line) => [line.instance_id, line.body_commit, line.body_changed_at])).toEqual([
      ['demo-pkg.mod.newer', 'commit-fn-newer', '2025-07-01T10:00:00Z'],
      ['demo-pkg.mod.newest', 'commit-fn-newest', '2026-01-02T03:04:05Z'],
    ]);
    expect(record.meta.freshness).toEqual({
      changed_since: cutoff,
      dated_by: expect.stringMatching(/ blame --porcelain -w -M -C at the base commit: /),
      candidates_dated: 3,
      candidates_changed: 2,
      oldest_body_changed_at: '2025-07-01T10:00:00Z',
      newest_body_changed_at: '2026-01-02T03:04:05Z',
    });
  });

  it('leaves a record made without a cutoff as it was: no body fields, no freshness', () => {
    const record = buildRebuildRecord(inputs({ tasks: [newer] }));
    expect(Object.keys(record.lines[0] ?? {})).not.toContain('body_commit');
    expect(formatRecordMeta(record.meta)).not.toContain('freshness');
  });

  it('refuses a task whose body did not change after the cutoff, or was never dated, naming it', () => {
    const older = task('demo-pkg.mod.older', { functionId: 'fn-older' });
    expect(() => buildRebuildRecord(inputs({ tasks: [newer, older], freshness }))).toThrow(
      /task demo-pkg\.mod\.older last changed 2024-02-01T00:00:00Z, not after the cutoff/,
    );
    const undated = task('demo-pkg.mod.undated', { functionId: 'fn-no-code' });
    expect(() => buildRebuildRecord(inputs({ tasks: [undated], freshness }))).toThrow(
      /task demo-pkg\.mod\.undated was never dated/,
    );
  });
});

describe('miningBehindTasks', () => {
  const row = (miningKey: string, mode: 'fast' | 'exact', at: number, functionId: string) => ({
    ...{ repository: 'demo', miningKey, mode, minedAt: new Date(at), functionId, qualname: functionId },
    ...{ status: 'tests' as const, tests: [], reason: null, method: 'in-process' as const },
    ...{ candidates: 1, seconds: 1 },
  });

  it('names the mining that holds most of the tasks, not a later check of one function', () => {
    expect(miningBehindTasks([], new Set())).toBeNull();
    const fast = ['f', 'g', 'h'].map((id, at) => row('key', 'fast', at, id));
    // `mine --exact --only f` afterwards: the most recent row, yet not the mining the tasks came from.
    const rows = [...fast, row('key', 'exact', 10, 'f')];
    expect(miningBehindTasks(rows, new Set(['f', 'g', 'h']))).toEqual({ miningKey: 'key', mode: 'fast' });
    expect(miningBehindTasks(rows, new Set(['f']))).toEqual({ miningKey: 'key', mode: 'fast' });
  });

  it('falls back on the mining of most functions, then the most recent', () => {
    const rows = [
      row('old', 'fast', 1, 'f'),
      row('new', 'exact', 5, 'f'),
      row('mid', 'fast', 3, 'g'),
      row('mid', 'fast', 4, 'h'),
    ];
    expect(miningBehindTasks(rows, new Set())).toEqual({ miningKey: 'mid', mode: 'fast' });
    expect(miningBehindTasks(rows.slice(0, 2), new Set())).toEqual({ miningKey: 'new', mode: 'exact' });
  });
});
