import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readSources } from './read-sources.js';
import { makeTempDir } from '../testing/test-support.js';

let dir: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = makeTempDir());
});
afterEach(() => cleanup());

describe('readSources', () => {
  it('reads and hashes each file as its exact bytes', () => {
    mkdirSync(join(dir, 'pkg'));
    const crlf = Buffer.from('def f():\r\n    return 1\r\n');
    writeFileSync(join(dir, 'pkg/a.py'), crlf);
    writeFileSync(join(dir, 'b.py'), '');

    const { sources, unreadable } = readSources(dir, ['pkg/a.py', 'b.py']);
    expect(unreadable).toEqual([]);
    expect(sources.map((s) => s.file)).toEqual(['pkg/a.py', 'b.py']);
    expect(Buffer.from(sources[0]?.bytes ?? []).equals(crlf)).toBe(true);
    expect(sources[0]?.contentHash).toBe(createHash('sha256').update(crlf).digest('hex'));
    expect(sources[1]?.contentHash).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('reports a path it cannot read (a directory named x.py) and reads the others', () => {
    mkdirSync(join(dir, 'x.py'));
    writeFileSync(join(dir, 'ok.py'), 'x = 1\n');

    const { sources, unreadable } = readSources(dir, ['x.py', 'ok.py']);
    expect(sources.map((s) => s.file)).toEqual(['ok.py']);
    expect(unreadable).toHaveLength(1);
    expect(unreadable[0]).toMatchObject({ file: 'x.py', kind: 'unreadable', lines: [] });
    expect(unreadable[0]?.message).toContain('x.py');
    expect(unreadable[0]?.message).toContain('EISDIR');
  });

  it('reports a file that vanished between listing and reading', () => {
    const { sources, unreadable } = readSources(dir, ['gone.py']);
    expect(sources).toEqual([]);
    expect(unreadable[0]?.message).toMatch(/^gone\.py: cannot be read \(ENOENT\)/);
  });
});
