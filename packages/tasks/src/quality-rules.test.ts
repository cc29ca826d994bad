import { describe, expect, it } from 'vitest';
import { parseSelectionSpec } from './selection-spec.js';
import { parseQualityRules, qualityFindings, qualityRulesInForce } from './quality-rules.js';

const FACTS = { solutionLines: 1, failToPass: 1_204, suiteSize: 2_016, preStateCollects: false };

describe('task-quality rules', () => {
  it("breaks none of REPOCOD's own choices, whatever the task", () => {
    expect(qualityFindings({}, FACTS)).toEqual([]);
  });

  it('names each rule a task breaks with its figures', () => {
    expect(qualityFindings({ minSolutionLines: 3, maxFailToPassShare: 0.5, preStateMustCollect: true }, FACTS)).toEqual(
      [
        { rule: 'minSolutionLines', detail: '1 solution line(s), fewer than 3' },
        { rule: 'maxFailToPassShare', detail: "FAIL_TO_PASS 1204 of the suite's 2016 tests (59.7%), more than 50%" },
        { rule: 'preStateMustCollect', detail: 'the pre state does not collect without the body' },
      ],
    );
    // Unknown figures (no baseline, not validated yet) break nothing.
    const unknown = { ...FACTS, suiteSize: null, preStateCollects: null };
    expect(qualityFindings({ maxFailToPassShare: 0.5, preStateMustCollect: true }, unknown)).toEqual([]);
  });

  it('reads a spec\'s "quality" and refuses what it cannot be, naming the rule', () => {
    const spec = parseSelectionSpec('{"quality": {"minSolutionLines": 3, "maxFailToPassShare": 0.5}}', 's.json');
    expect(spec.quality).toEqual({ minSolutionLines: 3, maxFailToPassShare: 0.5 });
    expect(parseSelectionSpec('{}', 's.json')).not.toHaveProperty('quality');
    expect(() => parseQualityRules({ minLines: 3 }, 's.json')).toThrow(
      's.json: quality: unknown rule "minLines" (known: minSolutionLines, maxFailToPassShare, preStateMustCollect)',
    );
    expect(() => parseQualityRules({ minSolutionLines: 0 }, 's.json')).toThrow(/minSolutionLines must be a whole/);
    expect(() => parseQualityRules({ maxFailToPassShare: 50 }, 's.json')).toThrow(/above 0 and at most 1 \(got 50\)/);
    expect(() => parseQualityRules({ preStateMustCollect: 'yes' }, 's.json')).toThrow(/must be true or false/);
    expect(() => parseQualityRules([], 's.json')).toThrow('s.json: "quality" must be an object of rules');
  });

  it("says every rule in force, REPOCOD's where the spec names none", () => {
    expect(qualityRulesInForce({ minSolutionLines: 3 })).toBe(
      "minSolutionLines 3, maxFailToPassShare 1 (REPOCOD's), preStateMustCollect false (REPOCOD's)",
    );
  });
});
