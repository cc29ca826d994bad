import { describe, expect, it } from 'vitest';
import { environmentDirectoryName, environmentKey, HARNESS_PACKAGES, SEED_PACKAGES } from './environment-key.js';

const RECIPE = '9644df40cdc6f5a3576deb1597fb7e1e7296c683bedd5615bb1786da506879fc';
const COMMIT = '2fec0b206c6e83ea813ab26597e15c96fab08be7';

describe('environmentKey', () => {
  it('is a sha256 hex digest that depends on the recipe and the base commit', () => {
    const key = environmentKey(RECIPE, COMMIT);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(environmentKey(RECIPE, COMMIT)).toBe(key);
    expect(environmentKey(RECIPE.replace('9', '8'), COMMIT)).not.toBe(key);
    expect(environmentKey(RECIPE, COMMIT.replace('2', '3'))).not.toBe(key);
    expect(environmentKey(RECIPE, null)).not.toBe(key);
  });

  it('names the folder by the repository and 16 hex digits of the key', () => {
    expect(environmentDirectoryName('plotly.py', environmentKey(RECIPE, COMMIT))).toMatch(/^plotly\.py-[0-9a-f]{16}$/);
  });
});

describe("the runner's pins", () => {
  it('pins every harness and seed package exactly, and leaves pytest to the recipe', () => {
    for (const requirement of [...HARNESS_PACKAGES, ...SEED_PACKAGES])
      expect(requirement).toMatch(/^[a-z][a-z0-9-]*==\d+(\.\d+)+$/);
    expect(HARNESS_PACKAGES).toEqual(['pytest-reportlog==1.0.0', 'coverage==7.6.1', 'pytest-timeout==2.4.0']);
    expect(HARNESS_PACKAGES.some((requirement) => requirement.startsWith('pytest=='))).toBe(false);
    expect(SEED_PACKAGES.some((requirement) => requirement.startsWith('pip=='))).toBe(true);
  });
});
