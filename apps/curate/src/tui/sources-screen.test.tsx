import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import type { FlowStatus, RepositoryStatus } from '@repocod/pipeline';
import { frameLines, overlong } from '../testing/ink-test-support.js';
import { SourcesScreen } from './sources-screen.js';

function repository(name: string, overrides: Partial<RepositoryStatus>): RepositoryStatus {
  return {
    ...{ name, origin: `/clones/${name}`, baseCommit: null, standInFor: null, checkedOut: true, environment: true },
    ...{ functions: 10, candidates: 4, mined: 4, withTests: 3, tasks: 3 },
    ...overrides,
  };
}

const STATUS: FlowStatus = {
  repositories: [
    repository('flask', { baseCommit: '2fec0b206c6e83ea813ab26597e15c96fab08be7' }),
    repository('scikit-learn', {
      standInFor: '1c0d9a1e0b34d66ec3cd9c4de9a5b2c0f2c3e1a9',
      origin: '/sdists/scikit_learn-1.5.2',
    }),
    repository('demo', { origin: 'datasets/demo' }),
  ],
  selection: null,
  validation: { passed: 0, failed: 0, infraError: 0, notValidated: 0 },
  releaseFolder: 'out/release',
  releasedVersions: [],
};

describe('the sources screen', () => {
  it("shows each repository's commit: the manifest's, ≈ the one a stand-in folder replaces, or local", () => {
    const app = render(
      <SourcesScreen
        status={STATUS}
        included={new Set(['flask'])}
        width={120}
        height={20}
        active={false}
        onToggle={() => undefined}
        onRun={() => undefined}
      />,
    );
    const lines = frameLines(app.lastFrame());
    expect(lines.find((line) => line.includes('flask'))).toMatch(/\[x\] flask +2fec0b206c6e +✓ +✓/);
    expect(lines.find((line) => line.includes('scikit-learn'))).toMatch(/\[ \] scikit-learn +≈1c0d9a1e0b3 +✓/);
    expect(lines.find((line) => line.includes('demo'))).toMatch(/\[ \] demo +local +✓/);
    expect(lines.join('\n')).toContain(
      "≈ scikit-learn: a folder that is not a git repository (a release's sdist) stands in",
    );
    expect(overlong(app.lastFrame(), 120)).toEqual([]);
  });

  it('says nothing of stand-ins when there is none', () => {
    const status = { ...STATUS, repositories: STATUS.repositories.filter((entry) => entry.name !== 'scikit-learn') };
    const app = render(
      <SourcesScreen
        status={status}
        included={new Set()}
        width={120}
        height={20}
        active={false}
        onToggle={() => undefined}
        onRun={() => undefined}
      />,
    );
    expect(app.lastFrame()).not.toContain('≈');
  });
});
