import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isRepocodError } from '@repocod/core';
import { describe, expect, it } from 'vitest';
import { describeInstallStep, isResolvedInstall } from './install-step.js';
import { loadManifest, parseManifest } from './manifest.js';

const PROJECT_ROOT = resolve(new URL('../../..', import.meta.url).pathname);
const REPOCOD_MANIFEST = join(PROJECT_ROOT, 'datasets/repocod/manifest.yaml');
const DEMO_MANIFEST = join(PROJECT_ROOT, 'datasets/demo/manifest.yaml');

/** REPOCOD's own pins, as ARCHITECTURE.md lists them: name → [GitHub owner/repo, base commit]. */
const REPOCOD_PINS: Record<string, [string, string]> = {
  astropy: ['astropy/astropy', 'ee084c73ef45927c374ec6d024a0017ca3422407'],
  sympy: ['sympy/sympy', 'c870d17c2638f5061800e344b72ff80086a0b41d'],
  pylint: ['pylint-dev/pylint', 'fa64425da9c59525195e03ef26338cd4be4af2e4'],
  flask: ['pallets/flask', '2fec0b206c6e83ea813ab26597e15c96fab08be7'],
  seaborn: ['mwaskom/seaborn', 'b4e5f8d261d6d5524a00b7dd35e00a40e4855872'],
  'plotly.py': ['plotly/plotly.py', '673c19c4eb83709d4344e87976e9fdee697919d3'],
  'scikit-learn': ['scikit-learn/scikit-learn', 'c71340fd74280408b84be7ca008e1205e10c7830'],
  'more-itertools': ['more-itertools/more-itertools', '4dc5e8bc6865b3c8890a0956d0aa4358ab2bc3f9'],
  sphinx: ['sphinx-doc/sphinx', '0a162fa8da21154011a2c890bb82fd0ce96ebf16'],
  datasets: ['huggingface/datasets', 'cdb1d32c5ed026eff8aec5b7068b8f0af07b82cd'],
  xarray: ['pydata/xarray', '095d47fcb036441532bf6f5aed907a6c4cfdfe0d'],
};

function tempFile(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'repocod-manifest-')), name);
  writeFileSync(path, text);
  return path;
}

function errorOf(action: () => unknown): { code: string; message: string } {
  try {
    action();
  } catch (error) {
    if (isRepocodError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a RepocodError');
}

describe('the REPOCOD manifest', () => {
  const manifest = loadManifest(REPOCOD_MANIFEST);

  it("has the 11 repositories under REPOCOD's names, at REPOCOD's base commits", () => {
    expect(manifest.repositories.map((entry) => entry.name).sort()).toEqual(Object.keys(REPOCOD_PINS).sort());
    for (const entry of manifest.repositories) {
      const [slug, commit] = REPOCOD_PINS[entry.name] ?? ['', ''];
      expect(entry.url, entry.name).toBe(`https://github.com/${slug}.git`);
      expect(entry.baseCommit, entry.name).toBe(commit);
      expect(entry.source, entry.name).toBeNull();
    }
  });

  it("keeps plotly.py's package under packages/python/plotly and every other at the root", () => {
    for (const entry of manifest.repositories) {
      expect(entry.packageRoot, entry.name).toBe(entry.name === 'plotly.py' ? 'packages/python/plotly' : '.');
    }
  });

  it("gives every repository a python, an install recipe, test roots and REPOCOD's 600 s", () => {
    for (const entry of manifest.repositories) {
      expect(entry.python, entry.name).toMatch(/^3\.1[0-2]$/);
      expect(entry.install.length, entry.name).toBeGreaterThan(0);
      expect(entry.testRoots.length, entry.name).toBeGreaterThan(0);
      expect(entry.timeoutSeconds, entry.name).toBe(600);
      // Every repository runs without pytest's cache; astropy also ignores the warning of its expired
      // leap-second table (a fact of today's date, not of its code: see the manifest's comment).
      expect(entry.pytestArgs.slice(0, 2), entry.name).toEqual(['-p', 'no:cacheprovider']);
      const extra = entry.name === 'astropy' ? ['-W', expect.stringMatching(/^ignore:leap-second auto-update/)] : [];
      expect(entry.pytestArgs.slice(2), entry.name).toEqual(extra);
    }
    expect(manifest.repositories.find((entry) => entry.name === 'seaborn')?.env).toEqual({ MPLBACKEND: 'Agg' });
  });

  it('installs only through resolved `pip:` steps, so every install is dated by the base commit', () => {
    for (const entry of manifest.repositories) {
      expect(entry.install.length, entry.name).toBeGreaterThan(0);
      for (const step of entry.install) {
        expect(isResolvedInstall(step), `${entry.name}: ${describeInstallStep(step)}`).toBe(true);
      }
      expect(entry.excludeNewer, entry.name).toBeUndefined();
    }
  });
});

describe('the demo manifest', () => {
  it('takes the demo from its folder, with no url and no base commit', () => {
    const manifest = loadManifest(DEMO_MANIFEST);
    expect(manifest.repositories).toEqual([
      {
        name: 'demo',
        url: null,
        source: 'datasets/demo',
        baseCommit: null,
        python: '3.11',
        packageRoot: '.',
        install: [{ pip: ['pytest==8.3.5'] }],
        testRoots: ['tests'],
        pytestArgs: ['-p', 'no:cacheprovider'],
        deselect: [],
        env: {},
        timeoutSeconds: 120,
      },
    ]);
  });
});

describe('loadManifest', () => {
  it('says when the file is missing or is a folder', () => {
    const missing = errorOf(() => loadManifest('datasets/nowhere/manifest.yaml'));
    expect(missing.code).toBe('path-not-found');
    expect(missing.message).toMatch(/^datasets\/nowhere\/manifest\.yaml: manifest not found/);
    const folder = errorOf(() => loadManifest(tmpdir()));
    expect(folder.code).toBe('file-unreadable');
    expect(folder.message).toContain('is a folder');
  });

  it('reports YAML syntax errors with the file and the line', () => {
    const badIndent = tempFile(
      'indent.yaml',
      'repositories:\n  - name: flask\n    url: https://github.com/pallets/flask.git\n   python: "3.11"\n',
    );
    const indent = errorOf(() => loadManifest(badIndent));
    expect(indent.code).toBe('config-invalid');
    expect(indent.message).toMatch(new RegExp(`^${escapeRegExp(badIndent)}:4: YAML syntax error: `));

    const duplicate = tempFile(
      'duplicate.yaml',
      'repositories:\n  - name: flask\n    python: "3.11"\n    python: "3.12"\n',
    );
    expect(errorOf(() => loadManifest(duplicate)).message).toBe(
      `${duplicate}:4: YAML syntax error: Map keys must be unique (fix the YAML at that line)`,
    );

    const unclosed = tempFile('unclosed.yaml', 'repositories:\n  - name: flask\n    test_roots: [tests\n');
    expect(errorOf(() => loadManifest(unclosed)).message).toMatch(
      new RegExp(`^${escapeRegExp(unclosed)}:\\d+: YAML syntax error: `),
    );

    const tabs = tempFile('tabs.yaml', 'repositories:\n\t- name: flask\n');
    expect(errorOf(() => loadManifest(tabs)).message).toMatch(
      new RegExp(`^${escapeRegExp(tabs)}:2: YAML syntax error: `),
    );
  });

  it('refuses a file holding more than one YAML document', () => {
    const text = 'repositories:\n  - name: a\n---\nrepositories: []\n';
    expect(errorOf(() => parseManifest(text, 'two.yaml')).message).toMatch(/^two\.yaml:3: YAML syntax error: /);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
