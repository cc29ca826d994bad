import { isRepocodError } from '@repocod/core';
import { describe, expect, it } from 'vitest';
import { environmentKey } from './environment-key.js';
import { type ManifestEntry, parseManifest } from './manifest.js';
import { recipeHash } from './manifest-recipe-hash.js';
import { type BaseCommitFacts, chooseRecipe, describeRecipeChoice, type StartCommitFacts } from './recipe-variant.js';

const BASE = 'a'.repeat(40);
const START = 'b'.repeat(40);

/** flask as REPOCOD's manifest has it, with the era after requirements/tests.txt as a variant; then a later one. */
const FLASK = [
  'repositories:',
  '  - name: flask',
  '    url: https://github.com/pallets/flask.git',
  `    base_commit: ${BASE}`,
  '    python: "3.11"',
  '    install:',
  '      - pip: [-r, requirements/tests.txt, --editable, .]',
  '    test_roots: [tests]',
  '    pytest_args: ["-p", "no:cacheprovider"]',
  '    variants:',
  '      - from: "2025-05-12T00:58:53Z"',
  '        why: requirements/tests.txt became the dependency group tests',
  '        install: [{pip: [asgiref, greenlet, pytest, python-dotenv, --editable, .]}]',
  `      - from: ${START}`,
  '        why: requires-python rose to 3.12',
  '        python: "3.12"',
  '        install: [{pip: [pytest, --editable, .]}]',
  '        timeout: 900',
];

function flask(lines: readonly string[] = FLASK): ManifestEntry {
  const [entry] = parseManifest(`${lines.join('\n')}\n`, 'manifest.yaml').repositories;
  if (entry === undefined) throw new Error('no entry');
  return entry;
}

function at(committedAt: string, startCommit?: StartCommitFacts): BaseCommitFacts {
  return {
    commit: BASE,
    committedAt,
    startCommits: new Map(startCommit === undefined ? [] : [[START, startCommit]]),
  };
}

describe('chooseRecipe', () => {
  it("keeps the entry's own fields before the first variant, exactly as an entry without variants", () => {
    const entry = flask();
    const choice = chooseRecipe(entry, at('2024-09-01T09:04:14-07:00'));
    expect(choice.chosen).toBeNull();
    expect(choice.entry).not.toHaveProperty('variants');
    const { variants, ...own } = entry;
    expect(variants).toHaveLength(2);
    expect(choice.entry).toEqual(own);
    // The environment's key is the one the entry had before it had variants.
    expect(recipeHash(choice.entry)).toBe(recipeHash(own));
    expect(describeRecipeChoice(choice)).toBe(
      "the entry's own (the commit, of 2024-09-01T09:04:14-07:00, is before variants[0] from 2025-05-12T00:58:53Z)",
    );
  });

  it('takes a moment variant from that moment on (its zone read), replacing only the fields it sets', () => {
    const entry = flask();
    // 2025-05-11T17:58:53-07:00 is the moment itself: "on or after" holds.
    const from = chooseRecipe(entry, at('2025-05-11T17:58:53-07:00'));
    expect(from.chosen?.index).toBe(0);
    expect(from.entry.install).toEqual([
      { pip: ['asgiref', 'greenlet', 'pytest', 'python-dotenv', '--editable', '.'] },
    ]);
    expect(from.entry.python).toBe('3.11');
    expect(from.entry.pytestArgs).toEqual(['-p', 'no:cacheprovider']);
    expect(describeRecipeChoice(from)).toBe(
      'variants[0] from 2025-05-12T00:58:53Z (manifest.yaml:11): requirements/tests.txt became the dependency group ' +
        'tests',
    );
    expect(chooseRecipe(entry, at('2025-05-11T17:58:52-07:00')).chosen).toBeNull();
  });

  it('takes a commit variant at the commit and its descendants only, whatever their dates', () => {
    const entry = flask();
    const reached = chooseRecipe(
      entry,
      at('2026-01-01T00:00:00Z', { committedAt: '2025-12-05T22:12:06Z', reached: true }),
    );
    expect(reached.chosen?.index).toBe(1);
    // A variant does not inherit the one before: its install is its own, the rest the entry's.
    expect(reached.entry).toMatchObject({ python: '3.12', install: [{ pip: ['pytest', '--editable', '.'] }] });
    expect(reached.entry.timeoutSeconds).toBe(900);
    const sideBranch = chooseRecipe(
      entry,
      at('2026-01-01T00:00:00Z', { committedAt: '2025-12-05T22:12:06Z', reached: false }),
    );
    expect(sideBranch.chosen?.index).toBe(0);
    // A start commit the history lacks does not apply.
    expect(chooseRecipe(entry, at('2026-01-01T00:00:00Z')).chosen?.index).toBe(0);
    // The base commit itself starts the variant.
    const itself = chooseRecipe(entry, { commit: START, committedAt: '2025-12-05T22:12:06Z', startCommits: new Map() });
    expect(itself.chosen?.index).toBe(1);
  });

  it('gives the two eras two environment keys, and each era one', () => {
    const entry = flask();
    const key = (committedAt: string): string =>
      environmentKey(recipeHash(chooseRecipe(entry, at(committedAt)).entry), BASE, committedAt);
    expect(key('2024-09-01T00:00:00Z')).not.toBe(key('2026-01-01T00:00:00Z'));
    const sameEra = (committedAt: string): string => recipeHash(chooseRecipe(entry, at(committedAt)).entry);
    expect(sameEra('2025-06-01T00:00:00Z')).toBe(sameEra('2026-01-01T00:00:00Z'));
  });

  it('refuses a start commit dated before the variant above it, naming where it is written', () => {
    const entry = flask();
    try {
      chooseRecipe(entry, at('2026-01-01T00:00:00Z', { committedAt: '2025-01-01T00:00:00Z', reached: true }));
      expect.unreachable();
    } catch (error) {
      if (!isRepocodError(error)) throw error;
      expect(error.code).toBe('config-invalid');
      expect(error.message).toBe(
        `manifest.yaml:14: flask.variants[1].from ${START} starts at 2025-01-01T00:00:00Z, not after variants[0] ` +
          `(2025-05-12T00:58:53Z); list variants oldest first, each starting later`,
      );
    }
  });

  it('has nothing to say of an entry without variants', () => {
    const entry = flask(FLASK.slice(0, 9));
    const choice = chooseRecipe(entry, at('2026-01-01T00:00:00Z'));
    expect(choice.entry).toEqual(entry);
    expect(describeRecipeChoice(choice)).toBeNull();
  });
});
