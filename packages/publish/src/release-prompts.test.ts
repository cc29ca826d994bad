import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { datasetConfigsOfCard } from './hub-dataset-download.js';
import { readReleaseRows, releaseFiles, writeRelease } from './release-folder.js';
import { promptsSection, withPromptsSection } from './prompts-card-section.js';
import { releasePrompts, shipPrompts } from './release-prompts.js';
import { failure, fixtureRow, folderContents, writeReleaseFixture } from './testing/hub-test-support.js';

/** Two prompt lines as `repocod prompts` writes them (the fields the card sums up, and a few more). */
function promptLines(setting: string, inputs: readonly number[]): string {
  return inputs
    .map((input, index) =>
      JSON.stringify({
        instance_id: `task_${index}`,
        setting,
        tokens: { tokenizer: 'cl100k', input, model_context: 16384 },
        retrieval:
          setting === 'bm25'
            ? { method: 'bm25', library: 'minisearch@7.2.0', k1: 1.2, b: 0.75, top: 5, query: 'target' }
            : null,
      }),
    )
    .map((line) => `${line}\n`)
    .join('');
}

describe('shipPrompts', () => {
  it('writes the prompts beside their version and names them in the card, its data untouched', () => {
    const { folder } = writeReleaseFixture(['1.0', '1.1']);
    const before = folderContents(folder);
    const shipped = shipPrompts(folder, '1.0', 'bm25', promptLines('bm25', [300, 100, 200]));
    expect(shipped.path).toBe('1.0/prompts/bm25.jsonl');
    shipPrompts(folder, '1.0', 'baseline', promptLines('baseline', [50, 60]));
    const after = folderContents(folder);
    for (const [path, bytes] of Object.entries(before))
      if (path !== 'README.md') expect(after[path]?.equals(bytes), path).toBe(true);
    const card = readFileSync(join(folder, 'README.md'), 'utf8');
    // The Hub reads every config of the card: the versions, default (still the newest), and each prompts file.
    expect(datasetConfigsOfCard(card, 'README.md').map((config) => [config.name, config.patterns])).toEqual([
      ['1.0', ['1.0/test-*']],
      ['1.1', ['1.1/test-*']],
      ['default', ['data/test-*']],
      ['1.0-prompts-baseline', ['1.0/prompts/baseline.jsonl']],
      ['1.0-prompts-bm25', ['1.0/prompts/bm25.jsonl']],
    ]);
    expect(card).toContain('# Demo release');
    expect(card).toContain(
      '| `1.0-prompts-bm25` | bm25 | `1.0/prompts/bm25.jsonl` | 3 | cl100k | 16384 | 200 / 300 | ' +
        'bm25 top 5, minisearch@7.2.0 |',
    );
    expect(card.match(/## Prompts/g)).toHaveLength(1);
    expect(releaseFiles(folder)).toContain('1.0/prompts/bm25.jsonl');
  });

  it('keeps the prompts named in the card when a new version is published', () => {
    const { folder } = writeReleaseFixture(['1.0']);
    shipPrompts(folder, '1.0', 'current-file', promptLines('current-file', [10]));
    writeRelease(folder, '2.0', [fixtureRow('task_9', '2.0')], '# Demo release 2.0\n');
    const card = readFileSync(join(folder, 'README.md'), 'utf8');
    expect(datasetConfigsOfCard(card, 'README.md').map((config) => config.name)).toEqual([
      '1.0',
      '2.0',
      'default',
      '1.0-prompts-current-file',
    ]);
    expect(card).toContain('# Demo release 2.0');
    expect(card).toContain('`1.0/prompts/current-file.jsonl`');
    expect(readReleaseRows(join(folder, 'data', 'test-00000-of-00001.parquet')).map((row) => row.version)).toEqual([
      '2.0',
    ]);
  });

  it('refuses a version the release does not hold, and a prompts file that is not JSON lines', async () => {
    const { folder } = writeReleaseFixture(['1.0']);
    expect((await failure(() => shipPrompts(folder, '3.0', 'bm25', ''))).message).toContain(
      'version 3.0 is not released there (its card lists 1.0)',
    );
    shipPrompts(folder, '1.0', 'bm25', promptLines('bm25', [1]));
    writeFileSync(join(folder, '1.0', 'prompts', 'bm25.jsonl'), '{"tokens": {}}\nnot json\n');
    expect((await failure(() => releasePrompts(folder, ['1.0']))).message).toContain(
      `${join(folder, '1.0/prompts/bm25.jsonl')}:2: not a JSON line`,
    );
  });
});

describe('withPromptsSection', () => {
  it('puts the section where it was, leaves a body without prompts as it is', () => {
    expect(withPromptsSection('# Card\n', [])).toBe('# Card\n');
    const { folder } = writeReleaseFixture(['1.0']);
    shipPrompts(folder, '1.0', 'bm25', promptLines('bm25', [5]));
    const prompts = releasePrompts(folder, ['1.0']);
    const once = withPromptsSection('# Card\n\nText.\n', prompts);
    expect(once).toBe(`# Card\n\nText.\n\n${promptsSection(prompts)}`);
    expect(withPromptsSection(once, prompts)).toBe(once);
    expect(withPromptsSection(once, [])).toBe('# Card\n\nText.\n\n');
  });
});
