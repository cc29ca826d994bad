import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { cardFeatures, RELEASE_SCHEMA } from './seed-schema.js';

const SEED = new URL('../../../datasets/seed/REPOCOD_Lite_Unified.card.yaml', import.meta.url);

interface SeedConfig {
  readonly config_name: string;
  readonly features: unknown[];
}

describe('the release schema', () => {
  const seed = parse(readFileSync(SEED, 'utf8')) as { dataset_info: SeedConfig[] };

  it('has, field by field, the features of every config of the seed card', () => {
    expect(seed.dataset_info.map((config) => config.config_name)).toEqual(['1.0', '1.1', 'default']);
    for (const config of seed.dataset_info) {
      const ours = cardFeatures();
      expect(ours.map((feature) => feature.name)).toEqual(
        config.features.map((feature) => (feature as { name: string }).name),
      );
      for (const [index, feature] of config.features.entries())
        expect({ config: config.config_name, ...ours[index] }).toEqual({
          config: config.config_name,
          ...(feature as object),
        });
    }
  });

  it('types the empty columns as Arrow nulls and FAIL_TO_PASS as a list of strings', () => {
    const types = Object.fromEntries(RELEASE_SCHEMA.fields.map((field) => [field.name, String(field.type)]));
    for (const name of ['test_patch', 'pre_scripts', 'hints_text', 'created_at']) expect(types[name]).toBe('Null');
    expect(types.evaluation).toBe('Struct<{FAIL_TO_PASS:List<Utf8>, PASS_TO_PASS:Null}>');
  });
});
