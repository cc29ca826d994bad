import { describe, expect, it } from 'vitest';
import { instanceId, repositorySlug, uniqueInstanceIds } from './instance-id.js';

describe('instanceId', () => {
  it('is readable and stable: repository, module, qualified name', () => {
    expect(instanceId('https://github.com/pallets/flask.git', 'src/flask/app.py', 'Flask.make_response')).toBe(
      'pallets__flask-flask.app.Flask.make_response',
    );
    expect(instanceId('more-itertools/more-itertools', 'more_itertools/more.py', 'chunked')).toBe(
      'more-itertools__more-itertools-more_itertools.more.chunked',
    );
    expect(instanceId('demo', 'inventory/__init__.py', 'retry.<locals>.wrapper')).toBe(
      'demo-inventory.retry.locals.wrapper',
    );
    expect(repositorySlug('git@github.com:sympy/sympy.git')).toBe('sympy__sympy');
  });

  it('names the module from the package root, as the package imports it', () => {
    const file = 'packages/python/plotly/plotly/graph_objs/_figure.py';
    expect(instanceId('plotly/plotly.py', file, 'Figure.show', 'packages/python/plotly')).toBe(
      'plotly__plotly.py-plotly.graph_objs._figure.Figure.show',
    );
    expect(instanceId('plotly/plotly.py', file, 'Figure.show', './packages/python/plotly/')).toBe(
      'plotly__plotly.py-plotly.graph_objs._figure.Figure.show',
    );
    // A file outside the package root (a script beside it) keeps its path from the repository root.
    expect(instanceId('plotly/plotly.py', 'scripts/build.py', 'main', 'packages/python/plotly')).toBe(
      'plotly__plotly.py-scripts.build.main',
    );
    expect(instanceId('pallets/flask', 'src/flask/app.py', 'Flask.run', '.')).toBe(
      'pallets__flask-flask.app.Flask.run',
    );
  });

  it('tells apart two definitions of one name with their lines', () => {
    const a = { file: 'm.py', qualname: 'f', line: 3 };
    const b = { file: 'm.py', qualname: 'f', line: 9 };
    const c = { file: 'm.py', qualname: 'g', line: 12 };
    expect([...uniqueInstanceIds('demo', [a, b, c]).values()]).toEqual(['demo-m.f-L3', 'demo-m.f-L9', 'demo-m.g']);
  });
});
