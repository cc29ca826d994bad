import { HARNESS_PROTOCOL } from '@repocod/runner';
import { describe, expect, it } from 'vitest';
import { coveragePlan, mutationPlan } from './harness-plans.js';
import type { MutationTarget } from './mutation-target.js';

const TARGET: MutationTarget = {
  id: 'mod.py::double',
  file: 'mod.py',
  name: 'double',
  qualname: 'double',
  firstLine: 1,
  bodyStart: 3,
  bodyEnd: 3,
  replacement: "    raise AssertionError('the body was removed')",
  patch: '--- a/mod.py\n+++ b/mod.py\n',
};

describe('the plans mining writes for the harness', () => {
  it('hold exactly the fields of the protocol', () => {
    const mutation = JSON.parse(mutationPlan('.', [{ target: TARGET, candidates: ['t.py::a'], onDisk: false }]));
    expect(Object.keys(mutation).sort()).toEqual([...HARNESS_PROTOCOL.shapes.mutationPlan].sort());
    expect(Object.keys(mutation.targets[0]).sort()).toEqual([...HARNESS_PROTOCOL.shapes.mutationTarget].sort());
    const coverage = JSON.parse(coveragePlan('.', [TARGET]));
    expect(Object.keys(coverage).sort()).toEqual([...HARNESS_PROTOCOL.shapes.coveragePlan].sort());
    expect(Object.keys(coverage.targets[0]).sort()).toEqual([...HARNESS_PROTOCOL.shapes.coverageTarget].sort());
  });

  it('keep their bytes: a traced shard is found again by its plan, part of its job hash', () => {
    expect(coveragePlan('.', [TARGET])).toBe(
      '{"packageRoot":".","targets":[{"id":"mod.py::double","file":"mod.py","bodyStart":3,"bodyEnd":3}]}',
    );
  });
});
