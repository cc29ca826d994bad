import { describe, expect, it } from 'vitest';
import { levelOf } from './context-level.js';

describe('levelOf', () => {
  it('is self-contained without dependencies', () => {
    expect(levelOf('pkg/a.py', [])).toBe('self-contained');
  });

  it('is file-level when every dependency is in the target file', () => {
    expect(levelOf('pkg/a.py', [{ file: 'pkg/a.py' }, { file: 'pkg/a.py' }])).toBe('file-level');
  });

  it('is repo-level as soon as one dependency is in another file', () => {
    expect(levelOf('pkg/a.py', [{ file: 'pkg/a.py' }, { file: 'pkg/b.py' }])).toBe('repo-level');
  });
});
