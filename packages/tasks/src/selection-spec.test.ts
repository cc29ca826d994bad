import { describe, expect, it } from 'vitest';
import { parseSelectionSpec, REPOCOD_LITE_SPEC } from './selection-spec.js';

describe('parseSelectionSpec', () => {
  it('fills missing fields with REPOCOD-Lite and keeps the given ones', () => {
    expect(parseSelectionSpec('{}', 'spec.json')).toEqual(REPOCOD_LITE_SPEC);
    expect(parseSelectionSpec('{"quotas": {"repo-level": 10}, "filter": "cc >= 3"}', 'spec.json')).toEqual({
      quotas: { 'self-contained': 66, 'file-level': 67, 'repo-level': 10 },
      score: 'prompt_lines * solution_lines',
      filter: 'cc >= 3',
    });
    expect(parseSelectionSpec('{"levels": "repocod-v1"}', 'spec.json')).toEqual({
      ...REPOCOD_LITE_SPEC,
      levels: 'repocod-v1',
    });
  });

  it('names the field that is wrong', () => {
    expect(() => parseSelectionSpec('{"quota": {}}', 'spec.json')).toThrow(/spec\.json: unknown field "quota"/);
    expect(() => parseSelectionSpec('{"quotas": {"repo": 3}}', 'spec.json')).toThrow(/quotas: unknown level "repo"/);
    expect(() => parseSelectionSpec('{"quotas": {"file-level": 2.5}}', 'spec.json')).toThrow(
      /quotas\.file-level must be a whole number/,
    );
    expect(() => parseSelectionSpec('{"score": "1; drop table tasks"}', 'spec.json')).toThrow(
      /"score" must be one SQL expression/,
    );
    expect(() => parseSelectionSpec('{', 'spec.json')).toThrow(/spec\.json: not JSON/);
    expect(() => parseSelectionSpec('{"levels": "v1"}', 'spec.json')).toThrow(
      /spec\.json: "levels" must be one of repocod-v1, repocod-v4, deps \(got "v1"\)/,
    );
  });

  it('reads a reference pool and keep-all, and refuses keep-all without a reference', () => {
    expect(parseSelectionSpec('{"reference": "repocod-lite-1.0", "keepAll": true}', 'spec.json')).toEqual({
      ...REPOCOD_LITE_SPEC,
      reference: 'repocod-lite-1.0',
      keepAll: true,
    });
    expect(() => parseSelectionSpec('{"keepAll": true}', 'spec.json')).toThrow(
      /spec\.json: "keepAll" keeps every task of a reference; name one in "reference"/,
    );
    expect(() => parseSelectionSpec('{"reference": 3}', 'spec.json')).toThrow(/"reference" must be a reference's name/);
  });
});
