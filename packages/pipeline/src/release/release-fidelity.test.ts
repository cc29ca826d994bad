import type { StoredTask } from '@repocod/catalog';
import { REPOCOD_LITE_SPEC } from '@repocod/tasks';
import { describe, expect, it } from 'vitest';
import { fidelityOfRelease } from './release-content.js';

/** What the fidelity section reads of a task: its repository, level and three measures. */
function task(repository: string, level: StoredTask['level']): StoredTask {
  return { repository, level, promptTokens: 100, solutionTokens: 50, complexity: 3 } as unknown as StoredTask;
}

describe("a release card's fidelity section", () => {
  const spec = JSON.stringify(REPOCOD_LITE_SPEC);

  it("compares a release holding REPOCOD's repositories (an era's as its repository) with REPOCOD-Lite", () => {
    const section = fidelityOfRelease(spec, [
      task('flask@2ac89889f4cc', 'self-contained'),
      task('sympy', 'file-level'),
    ]);
    expect(section).toContain('### The 2 released tasks against REPOCOD-Lite (200 tasks)');
    // The era's task counts as flask's, not as a repository REPOCOD does not hold.
    expect(section).toMatch(/^\| flask \| all \| 1 \/ 3 \(−2\) \|/m);
    expect(section).not.toContain('flask@2ac89889f4cc');
  });

  it('has none for a release of repositories REPOCOD does not hold', () => {
    expect(fidelityOfRelease(spec, [task('click', 'self-contained'), task('attrs', 'file-level')])).toBeNull();
  });
});
