import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { ReleaseRow } from './release-table.js';
import {
  applyReleasePlan,
  PARQUET_NAME,
  planRelease,
  readReleaseRows,
  releaseFiles,
  writeRelease,
} from './release-folder.js';

function row(id: string, code = 'gold'): ReleaseRow {
  return {
    instance_id: id,
    version: 'x',
    gold_patches: { code, test: 't' },
    pre_patches: { code: 'p', test: 'q' },
    repo: 'demo',
    base_commit: 'c',
    base_commit_timestamp: '2024-01-01T00:00:00+00:00',
    problem_statement: { code: 'c', test: 'd' },
    environment_setup_commit: 'c',
    FAIL_TO_PASS: [`tests/t.py::test_${id}`],
  };
}

describe('writeRelease', () => {
  it('lays a version out as the Hub wants, adds later versions beside it and diffs them', () => {
    const folder = mkdtempSync(join(tmpdir(), 'repocod-release-'));
    const first = writeRelease(folder, '1.0', [row('a'), row('b')], '# Demo\n');
    expect(first.files).toEqual(['README.md', `data/${PARQUET_NAME}`, `1.0/${PARQUET_NAME}`]);
    expect(first.diff).toBeNull();
    const firstBytes = readFileSync(join(folder, '1.0', PARQUET_NAME));

    const second = writeRelease(folder, '1.1', [row('b', 'changed'), row('c')], '# Demo, again\n');
    expect(second.diff).toEqual({ previous: '1.0', added: ['c'], removed: ['a'], changed: ['b'] });
    expect(second.files).toEqual(['README.md', `data/${PARQUET_NAME}`, `1.0/${PARQUET_NAME}`, `1.1/${PARQUET_NAME}`]);
    // The earlier version is left byte for byte; default now holds the new one.
    expect(readFileSync(join(folder, '1.0', PARQUET_NAME))).toEqual(firstBytes);
    expect(readReleaseRows(join(folder, 'data', PARQUET_NAME)).map((stored) => stored.instance_id)).toEqual(['b', 'c']);
    const card = readFileSync(join(folder, 'README.md'), 'utf8');
    const front = parse(card.split('---\n')[1] ?? '') as {
      dataset_info: { config_name: string; splits: { num_examples: number }[]; download_size: number }[];
      configs: { config_name: string }[];
    };
    expect(front.dataset_info.map((info) => [info.config_name, info.splits[0]?.num_examples])).toEqual([
      ['1.0', 2],
      ['1.1', 2],
      ['default', 2],
    ]);
    expect(front.dataset_info[1]?.download_size).toBe(statSync(join(folder, '1.1', PARQUET_NAME)).size);
    expect(front.configs.map((config) => config.config_name)).toEqual(['1.0', '1.1', 'default']);
    expect(card).toContain('# Demo, again\n');

    expect(() => writeRelease(folder, '1.0', [row('z')], '')).toThrow(
      /version 1\.0 is already released there \(1\.0, 1\.1\); versions are never rewritten/,
    );
    expect(() => writeRelease(folder, 'data', [row('z')], '')).toThrow(/--version data/);
  });

  it("plans a version without writing anything, then writes the plan with the version's extra files", () => {
    const folder = mkdtempSync(join(tmpdir(), 'repocod-release-'));
    writeRelease(folder, '1.0', [row('a')], '# Demo\n');
    writeFileSync(join(folder, '1.0', `${PARQUET_NAME}.partial`), 'left by an interrupted write');
    writeFileSync(join(folder, '.hidden'), 'not part of a release');
    const plan = planRelease(folder, '2.0', [row('a'), row('b')], '# Demo 2\n', [
      { name: 'validation.jsonl', content: '{"instance_id":"a"}\n' },
    ]);
    expect(plan.writes.map((write) => write.path)).toEqual([
      `2.0/${PARQUET_NAME}`,
      `data/${PARQUET_NAME}`,
      '2.0/validation.jsonl',
      'README.md',
    ]);
    expect(plan.files).toEqual([
      'README.md',
      `data/${PARQUET_NAME}`,
      `1.0/${PARQUET_NAME}`,
      `2.0/${PARQUET_NAME}`,
      '2.0/validation.jsonl',
    ]);
    expect(plan.diff).toEqual({ previous: '1.0', added: ['b'], removed: [], changed: [] });
    expect(existsSync(join(folder, '2.0'))).toBe(false);
    expect(readFileSync(join(folder, 'README.md'), 'utf8')).not.toContain('2.0');
    const written = applyReleasePlan(plan);
    expect(written).not.toHaveProperty('writes');
    expect(releaseFiles(folder)).toEqual(plan.files);
    expect(readFileSync(join(folder, '2.0', 'validation.jsonl'), 'utf8')).toBe('{"instance_id":"a"}\n');
    expect(readFileSync(join(folder, '2.0', PARQUET_NAME))).toEqual(Buffer.from(plan.writes[0]?.bytes ?? []));
  });
});
