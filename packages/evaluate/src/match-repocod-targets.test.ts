import { describe, expect, it } from 'vitest';
import { dottedName, matchRepocodTargets } from './match-repocod-targets.js';
import type { Prediction } from './prediction.js';

const tasks = [
  {
    instanceId: 's-1',
    repository: 'seaborn',
    file: 'seaborn/_core/scales.py',
    qualname: 'Continuous.label',
    prompt: 'def label(self, a):',
  },
  {
    instanceId: 's-2',
    repository: 'seaborn',
    file: 'seaborn/axisgrid.py',
    qualname: 'PairGrid.__init__',
    prompt: 'def __init__(self):',
  },
  {
    instanceId: 's-3',
    repository: 'seaborn',
    file: 'seaborn/axisgrid.py',
    qualname: 'FacetGrid.__init__',
    prompt: 'def __init__(self, data):',
  },
];

const repocod = (functionName: string, prompt: string | null = null): Prediction => ({
  target: { kind: 'repocod', repository: 'seaborn', functionName, prompt },
  model: 'm',
  change: { kind: 'completion', completion: 'return 1' },
  source: `p.json: seaborn/${functionName}`,
});

describe('matchRepocodTargets', () => {
  it("matches REPOCOD's shortest dotted suffix, and the prompt where the name is not enough", () => {
    const { predictions, problems } = matchRepocodTargets(
      [
        repocod('Continuous.label'),
        repocod('axisgrid.PairGrid.__init__'),
        repocod('__init__', 'def __init__(self,  data):'),
      ],
      tasks,
    );
    expect(predictions.map((p) => p.target)).toEqual([
      { kind: 'instance', instanceId: 's-1' },
      { kind: 'instance', instanceId: 's-2' },
      { kind: 'instance', instanceId: 's-3' },
    ]);
    expect(problems).toEqual([]);
  });
  it('names what matches nothing or too much', () => {
    const { problems } = matchRepocodTargets([repocod('Nope.f'), repocod('__init__')], tasks);
    expect(problems.map((p) => p.message)).toEqual([
      'no task of seaborn is named Nope.f',
      '__init__ names 2 tasks of seaborn (s-2, s-3) and the prompt does not tell them apart',
    ]);
  });
  it("keeps a package's __init__ in the dotted name, as REPOCOD's names have it", () => {
    // sphinx's `__init__.ObjectDescription.run` is sphinx/directives/__init__.py's ObjectDescription.run.
    expect(dottedName({ file: 'sphinx/directives/__init__.py', qualname: 'ObjectDescription.run' })).toBe(
      'sphinx.directives.__init__.ObjectDescription.run',
    );
  });
});
