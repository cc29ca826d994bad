import type { TestResult } from '@repocod/runner';
import { describe, expect, it } from 'vitest';
import { baselineOf, classifyBaseline } from './baseline.js';
import { networkBound } from './network-bound.js';

const result = (
  nodeId: string,
  outcome: TestResult['outcome'],
  message: string | null = null,
  duration = 0.1,
): TestResult => ({ nodeId, outcome, duration, message });

describe('classifyBaseline', () => {
  it('tells passing, flaky and consistently not-passing tests apart', () => {
    const baseline = classifyBaseline([
      [result('t::a', 'passed'), result('t::b', 'passed'), result('t::c', 'skipped'), result('t::d', 'failed', 'boom')],
      [
        result('t::a', 'passed', null, 0.4),
        result('t::b', 'failed', 'E   assert 1 == 2\nmore'),
        result('t::c', 'skipped'),
        result('t::d', 'failed', 'boom'),
      ],
      [result('t::a', 'passed'), result('t::b', 'passed'), result('t::c', 'skipped')],
    ]);
    expect([...baseline.passing]).toEqual(['t::a']);
    const byId = new Map(baseline.tests.map((test) => [test.nodeId, test]));
    expect(byId.get('t::a')).toEqual({
      nodeId: 't::a',
      status: 'passing',
      outcomes: ['passed', 'passed', 'passed'],
      reason: null,
      seconds: 0.4,
    });
    expect(byId.get('t::b')).toMatchObject({
      status: 'flaky',
      reason: 'passed in 2 of 3 runs (passed, failed, passed); run 2: failed (E   assert 1 == 2)',
    });
    expect(byId.get('t::c')).toMatchObject({ status: 'not-passing', reason: 'skipped in all 3 runs' });
    // Absent from a run: missing there, which makes it flaky rather than failing.
    expect(byId.get('t::d')).toMatchObject({ status: 'flaky', outcomes: ['failed', 'failed', 'missing'] });
  });

  it('rebuilds the passing set from stored tests', () => {
    const { tests } = classifyBaseline([[result('t::a', 'passed'), result('t::b', 'xfailed')]]);
    expect([...baselineOf(tests).passing]).toEqual(['t::a']);
    expect(tests[1]?.reason).toBe('xfailed in the only run');
  });

  it("keeps the first line of a not-passing test's message in its reason, which tells the network-bound ones", () => {
    const unreachable = '/usr/lib/python3.11/socket.py:836: OSError: [Errno 101] Network is unreachable\nmore';
    const dns =
      "tests/test_x.py:9: requests.exceptions.ConnectionError: HTTPSConnectionPool(host='pypi.org', port=443)";
    const { tests } = classifyBaseline([
      [
        result('t::net', 'failed', unreachable),
        result('t::dns', 'failed', dns),
        result('t::bug', 'failed', 'E   assert 1 == 2'),
        result('t::ok', 'passed'),
      ],
      [
        result('t::net', 'failed', unreachable),
        result('t::dns', 'failed', dns),
        result('t::bug', 'failed', 'E   assert 1 == 2'),
        result('t::ok', 'passed'),
      ],
    ]);
    expect(tests.find((test) => test.nodeId === 't::net')?.reason).toBe(
      'failed in all 2 runs (/usr/lib/python3.11/socket.py:836: OSError: [Errno 101] Network is unreachable)',
    );
    expect(networkBound(tests).map((test) => test.nodeId)).toEqual(['t::dns', 't::net']);
  });
});
