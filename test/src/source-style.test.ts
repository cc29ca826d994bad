import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from './project-paths.js';

/**
 * The workspace's formatting and lint rules (biome.json) hold for every source file: `biome ci`
 * fails on a file the formatter would change and on a lint error, and prints which and why.
 */
describe('the source style', () => {
  it('is what biome.json says: formatted, and no lint error', { timeout: 120_000 }, () => {
    const biome = join(PROJECT_ROOT, 'node_modules/.bin/biome');
    const run = spawnSync(biome, ['ci', '--max-diagnostics=50', '.'], { cwd: PROJECT_ROOT, encoding: 'utf8' });
    expect(run.status, `${run.stdout}${run.stderr}\nfix with: pnpm format`).toBe(0);
  });

  it('has no source line past 120 columns (TypeScript, JavaScript and the harness Python)', () => {
    const listed = spawnSync('git', ['ls-files', '*.ts', '*.tsx', '*.mjs', '*.py'], {
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
    });
    expect(listed.status, listed.stderr).toBe(0);
    const files = listed.stdout.split('\n').filter((file) => file !== '');
    expect(files.length).toBeGreaterThan(100);
    const long = files.flatMap((file) =>
      readFileSync(join(PROJECT_ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, index) => ([...line].length > 120 ? [`${file}:${index + 1} (${[...line].length})`] : [])),
    );
    expect(long, 'wrap these lines (a string: a backslash line continuation or +; a comment: a new line)').toEqual([]);
  });
});
