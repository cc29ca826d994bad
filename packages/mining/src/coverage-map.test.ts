import { describe, expect, it } from 'vitest';
import { mergeCoverage, parseCoverageArtifact, routeFunction } from './coverage-map.js';

const passing = new Set(['t::a', 't::b', 't::sub']);

describe('routeFunction', () => {
  it('sends code that runs at import time to the import-time route with the passing tests that ran it', () => {
    expect(
      routeFunction({ tests: ['t::b', 't::flaky'], subprocessTests: ['t::a'], importTime: true }, passing),
    ).toEqual({ kind: 'import-time', candidates: ['t::a', 't::b'] });
    expect(routeFunction({ tests: [], subprocessTests: [], importTime: true }, passing)).toEqual({
      kind: 'import-time',
      candidates: [],
    });
  });

  it('sends a function the map lacks to the whole suite', () => {
    expect(routeFunction(undefined, passing)).toMatchObject({ kind: 'whole-suite' });
  });

  it('runs the passing tests that ran the body, on disk too when a child process ran it', () => {
    expect(
      routeFunction({ tests: ['t::b', 't::a', 't::flaky'], subprocessTests: [], importTime: false }, passing),
    ).toEqual({ kind: 'in-process', candidates: ['t::a', 't::b'], onDisk: false });
    expect(routeFunction({ tests: [], subprocessTests: ['t::sub'], importTime: false }, passing)).toEqual({
      kind: 'in-process',
      candidates: ['t::sub'],
      onDisk: true,
    });
  });

  it('has no tests for a body no passing test runs, and says why', () => {
    expect(routeFunction({ tests: [], subprocessTests: [], importTime: false }, passing)).toEqual({
      kind: 'none',
      reason: 'no test runs its body',
    });
    expect(routeFunction({ tests: ['t::flaky'], subprocessTests: [], importTime: false }, passing)).toMatchObject({
      kind: 'none',
      reason: expect.stringMatching(/only tests that do not pass/),
    });
  });
});

describe('parseCoverageArtifact and mergeCoverage', () => {
  it('reads the plugin lines and merges two shards', () => {
    const map = parseCoverageArtifact(
      '{"id": "f", "tests": ["t::a"], "subprocessTests": [], "importTime": false}\n',
      'the map',
    );
    const other = parseCoverageArtifact(
      '{"id": "f", "tests": ["t::b"], "subprocessTests": ["t::sub"], "importTime": true}\n',
      'the map',
    );
    expect(
      mergeCoverage(map.get('f'), other.get('f') ?? { tests: [], subprocessTests: [], importTime: false }),
    ).toEqual({ tests: ['t::a', 't::b'], subprocessTests: ['t::sub'], importTime: true });
  });

  it('names the line that is not a coverage record', () => {
    expect(() => parseCoverageArtifact('{"id": 3}\n', 'demo: the coverage map')).toThrow(
      /demo: the coverage map, line 1: expected \{id, tests, subprocessTests, importTime\}/,
    );
    expect(() => parseCoverageArtifact('\n{oops', 'the map')).toThrow(/the map, line 2: not JSON/);
  });
});
