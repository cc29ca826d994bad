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
    const files = listedFiles('*.ts', '*.tsx', '*.mjs', '*.py');
    const long = files.flatMap((file) =>
      readFileSync(join(PROJECT_ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, index) => ([...line].length > 120 ? [`${file}:${index + 1} (${[...line].length})`] : [])),
    );
    expect(long, 'wrap these lines (a string: pieces joined with +; a comment: a new line)').toEqual([]);
  });

  // A string continued with a backslash at the end of a line makes its next line start at column 0, where a search
  // for the message's words finds half of it, and the formatter cannot indent it: messages are pieces joined with +.
  it('has no string continued with a backslash at the end of a line (TypeScript and JavaScript)', () => {
    const continued = listedFiles('*.ts', '*.tsx', '*.mjs', '*.js').flatMap((file) =>
      readFileSync(join(PROJECT_ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, index) => (/(^|[^\\])(\\\\)*\\$/.test(line) ? [`${file}:${index + 1}`] : [])),
    );
    expect(continued, 'end the piece and join the next with + (a backslash continuation)').toEqual([]);
  });
});

function listedFiles(...patterns: string[]): string[] {
  const listed = spawnSync('git', ['ls-files', ...patterns], { cwd: PROJECT_ROOT, encoding: 'utf8' });
  expect(listed.status, listed.stderr).toBe(0);
  const files = listed.stdout.split('\n').filter((file) => file !== '');
  expect(files.length).toBeGreaterThan(100);
  return files;
}
