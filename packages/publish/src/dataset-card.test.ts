import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { cardFrontMatter, configsOfCard } from './dataset-card.js';

const SEED = parse(
  readFileSync(new URL('../../../datasets/seed/REPOCOD_Lite_Unified.card.yaml', import.meta.url), 'utf8'),
) as Record<string, unknown>;

describe('cardFrontMatter', () => {
  const configs = [
    { version: '1.0', numBytes: 75055139, numExamples: 200, downloadSize: 20308767 },
    { version: '1.1', numBytes: 10305006, numExamples: 173, downloadSize: 3324343 },
  ];

  it('writes the seed’s own header when given the seed’s sizes, default pointing at 1.0 as the seed does', () => {
    const yaml = cardFrontMatter(configs, '1.0');
    expect(yaml.startsWith('---\n')).toBe(true);
    expect(parse(yaml.slice(4, -4))).toEqual(SEED);
  });

  it('reads the versions of an earlier card back', () => {
    expect(configsOfCard(`${cardFrontMatter(configs, '1.1')}\n# REPOCOD\n`, 'README.md')).toEqual(configs);
    expect(() => configsOfCard('# no front matter\n', 'out/release/README.md')).toThrow(
      /^out\/release\/README\.md: not a release card \(no YAML front matter, .*\); download the release again/,
    );
    const fix = 'repair the card on the Hub';
    expect(() => configsOfCard('---\ndataset_info: [\n---\n', 'hub/README.md', fix)).toThrow(
      expect.objectContaining({
        code: 'usage',
        problem: 'bad-card',
        message: expect.stringMatching(
          /^hub\/README\.md: not a release card \(its front matter is not YAML: .*\); repair/,
        ),
      }),
    );
  });
});
