import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listPythonFiles } from './list-python-files.js';

describe('listPythonFiles', () => {
  it('lists the repository own .py files, sorted, and skips caches, hidden folders and venvs', () => {
    const root = mkdtempSync(join(tmpdir(), 'repocod-list-'));
    const touch = (path: string): void => {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), '');
    };
    for (const path of [
      'pkg/b.py',
      'pkg/a.py',
      'pkg/build/tool.py',
      'setup.py',
      'README.md',
      '.git/hook.py',
      'pkg/__pycache__/a.py',
      'build/lib/pkg/a.py',
      'venv/lib/x.py',
    ])
      touch(path);
    writeFileSync(join(root, 'venv/pyvenv.cfg'), 'home = /usr\n');
    expect(listPythonFiles(root)).toEqual(['pkg/a.py', 'pkg/b.py', 'pkg/build/tool.py', 'setup.py']);
  });

  it('names a missing path and a file given as a folder', () => {
    expect(() => listPythonFiles('/no/such/repo')).toThrow(/\/no\/such\/repo: no such file/);
    const file = join(mkdtempSync(join(tmpdir(), 'repocod-list-')), 'f.py');
    writeFileSync(file, '');
    expect(() => listPythonFiles(file)).toThrow(/not a directory/);
  });
});
