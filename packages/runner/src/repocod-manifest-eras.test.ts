import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { environmentKey } from './environment-key.js';
import { loadManifest } from './manifest.js';
import { manifestEntry } from './manifest-entry.js';
import { recipeHash } from './manifest-recipe-hash.js';
import { chooseRecipe } from './recipe-variant.js';

// REPOCOD's manifest carries the recipes of 2026 as variants: the committed 2024 records must keep their
// environments (the same key, so the same build is reused), and the 2026 commits must get the recipes the fresh
// build of issue 34 used. The variants start at moments, so the choice needs no git here.

const PROJECT_ROOT = resolve(new URL('../../..', import.meta.url).pathname);
const MANIFEST = loadManifest(join(PROJECT_ROOT, 'datasets/repocod/manifest.yaml'));
const REBUILT = join(PROJECT_ROOT, 'datasets/repocod/rebuilt');

interface RecordMeta {
  readonly repository: string;
  readonly base_commit: string;
  readonly base_commit_timestamp: string;
  readonly stands_in_for: string | null;
  readonly environment: { readonly key: string; readonly resolved_as_of: string | null };
}

const RECORDS: RecordMeta[] = readdirSync(REBUILT)
  .filter((file) => file.endsWith('.meta.json'))
  .map((file) => JSON.parse(readFileSync(join(REBUILT, file), 'utf8')) as RecordMeta);

function recipeAt(name: string, commit: string, committedAt: string): ReturnType<typeof chooseRecipe> {
  return chooseRecipe(manifestEntry(MANIFEST, name), { commit, committedAt, startCommits: new Map() });
}

describe("REPOCOD's manifest across eras", () => {
  it('starts every variant at a moment, so that the choice is read from the dates alone', () => {
    const starts = MANIFEST.repositories.flatMap((entry) => (entry.variants ?? []).map((variant) => variant.from.kind));
    expect(starts.length).toBeGreaterThanOrEqual(4);
    expect(new Set(starts)).toEqual(new Set(['moment']));
  });

  it.each(RECORDS.map((record) => [record.repository, record] as const))(
    'gives %s at its 2024 base commit the environment key of its committed record',
    (_name, record) => {
      const choice = recipeAt(record.repository, record.base_commit, record.base_commit_timestamp);
      expect(choice.chosen).toBeNull();
      const resolvedAsOf = record.environment.resolved_as_of;
      // A stand-in's recipe is resolved as of its newest file, which it carries as exclude_newer (stand-in-source.ts).
      const entry =
        record.stands_in_for === null || resolvedAsOf === null
          ? choice.entry
          : { ...choice.entry, excludeNewer: resolvedAsOf };
      const key = environmentKey(recipeHash(entry), record.base_commit, resolvedAsOf);
      expect(key).toBe(record.environment.key);
    },
  );

  it('gives the 2026 commits of the fresh build the recipes it was built with', () => {
    const flask = recipeAt('flask', '2ac89889f4cc330eabd50f295dcef02828522c69', '2026-04-08T21:04:03-07:00');
    expect(flask.entry).toMatchObject({
      python: '3.11',
      install: [{ pip: ['asgiref', 'greenlet', 'pytest', 'python-dotenv', '--editable', '.'] }],
    });
    const seaborn = recipeAt('seaborn', 'f04b6cd5484267a0885d1fed068e99dff3a1b226', '2026-07-05T22:11:53-04:00');
    expect(seaborn.entry).toMatchObject({
      python: '3.11',
      install: [{ pip: ['pytest==9.1.1', '--editable', '.[stats]'] }],
      env: { MPLBACKEND: 'Agg' },
    });
    const sphinx = recipeAt('sphinx', 'e44a40eb2f810558ccd9da1425421270ccb81351', '2026-08-07T22:14:54+02:00');
    expect(sphinx.entry).toMatchObject({
      python: '3.12',
      install: [
        {
          pip: [
            '--editable',
            '.',
            'pytest>=9.0',
            'cython>=3.0',
            'defusedxml>=0.7.1',
            'setuptools>=70.0',
            'typing_extensions>=4.9',
          ],
        },
      ],
    });
    // more-itertools' and pylint's 2024 recipes still apply.
    for (const name of ['more-itertools', 'pylint']) {
      expect(manifestEntry(MANIFEST, name).variants).toBeUndefined();
    }
  });

  it("gives sphinx between the extras' removal and Python 3.12 the group of that era on 3.11", () => {
    const between = recipeAt('sphinx', 'f'.repeat(40), '2025-09-01T00:00:00Z');
    expect(between.chosen?.index).toBe(0);
    expect(between.entry.python).toBe('3.11');
    expect(between.entry.install).toEqual([
      {
        pip: [
          '--editable',
          '.',
          'pytest>=8.0',
          'cython>=3.0',
          'defusedxml>=0.7.1',
          'setuptools>=70.0',
          'typing_extensions>=4.9',
        ],
      },
    ]);
  });
});
