import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One release of the test package: its unpacked folder, its sdist, its version and the time of its files. */
export interface TestRelease {
  readonly folder: string;
  readonly archive: string;
  readonly version: string;
  /** Every file's (and folder's) modification time, UTC `YYYY-MM-DDTHH:MM:SSZ`: the release's date. */
  readonly releasedAt: string;
}

/** The two releases, and the module's functions by what 1.1 did to them. */
export interface ReleaseSdists {
  readonly older: TestRelease;
  readonly newer: TestRelease;
  /** The project's name, as PKG-INFO's `Name:` and the sdists' folders have it. */
  readonly project: string;
  /** The module's path in both releases. */
  readonly module: string;
}

/** The functions of the module: what 1.1 does to each. */
export const RELEASE_FUNCTIONS = {
  /** The same in both. */
  unchanged: 'steady',
  /** A code line of its body rewritten. */
  changed: 'edited',
  /** Re-indented, respaced, with a comment line and a blank line added: the same code. */
  reformatted: 'reflowed',
  /** Only in 1.1. */
  added: 'fresh',
  /** A method whose docstring alone changed. */
  documented: 'Tally.bump',
} as const;

const PROJECT = 'tinypkg';

/** A docstring of more than ten lines, indented by `indent`: what makes a function a candidate. */
function docstring(indent: string, summary: string): string {
  const lines = [`"""${summary}`, '', ...Array.from({ length: 10 }, (_, line) => `Detail line ${line + 1}.`), '"""'];
  return lines.map((line) => (line === '' ? '' : `${indent}${line}`)).join('\n');
}

function moduleText(version: '1.0' | '1.1'): string {
  const older = version === '1.0';
  const steady = ['def steady(x):', docstring('    ', 'Doubles x.'), '    total = x * 2', '    return total'];
  const edited = [
    'def edited(x):',
    docstring('    ', 'Adds one to x.'),
    older ? '    result = x + 1' : '    result = 1 + x + 0',
    '    return result',
  ];
  // 1.0 indents this function by two spaces and packs its operators; 1.1 by four, spaced, with a comment and a blank.
  const reflowed = older
    ? ['def reflowed(x, y):', docstring('  ', 'Sums x and y.'), '  s=x+y', '  return s']
    : [
        'def reflowed(x, y):',
        docstring('    ', 'Sums x and y.'),
        '    # the sum, spelt out',
        '    s = x + y',
        '',
        '    return s',
      ];
  const fresh = ['def fresh(x):', docstring('    ', 'Negates x.'), '    value = -x', '    return value'];
  const tally = [
    'class Tally:',
    '    def bump(self, by):',
    docstring('        ', older ? 'Adds `by` to the count.' : 'Adds `by` to the count, and returns it.'),
    '        self.count = getattr(self, "count", 0) + by',
    '        return self.count',
  ];
  const parts = older ? [steady, edited, reflowed, tally] : [steady, edited, reflowed, fresh, tally];
  return `${parts.map((part) => part.join('\n')).join('\n\n\n')}\n`;
}

/** Every file and folder under `folder` (and itself) given the modification time `at`, as an sdist keeps its build. */
function stamp(folder: string, at: string): void {
  const time = new Date(at);
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) stamp(path, at);
    else utimesSync(path, time, time);
  }
  utimesSync(folder, time, time);
}

function release(dir: string, version: '1.0' | '1.1', releasedAt: string): TestRelease {
  const name = `${PROJECT}-${version}`;
  const folder = join(dir, 'build', name);
  mkdirSync(join(folder, PROJECT), { recursive: true });
  writeFileSync(
    join(folder, 'PKG-INFO'),
    [
      'Metadata-Version: 2.1',
      `Name: ${PROJECT}`,
      `Version: ${version}`,
      'Summary: a test package',
      '',
      'Text.',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(folder, 'pyproject.toml'),
    ['[project]', `name = "${PROJECT}"`, `version = "${version}"`, ''].join('\n'),
  );
  writeFileSync(join(folder, PROJECT, '__init__.py'), `__version__ = "${version}"\n`);
  writeFileSync(join(folder, PROJECT, 'text.py'), moduleText(version));
  stamp(folder, releasedAt);
  const archive = join(dir, `${name}.tar.gz`);
  execFileSync('tar', ['-czf', archive, '-C', join(dir, 'build'), name]);
  return { folder, archive, version, releasedAt };
}

/**
 * Test support: two releases of a small package made in `dir`, each a folder (`build/tinypkg-1.0`) and its sdist
 * (`tinypkg-1.0.tar.gz`, made by tar, which keeps the files' times): 1.0 at `olderAt`, and 1.1 at `newerAt` with one
 * function's body changed, one only re-indented and commented, one added, one unchanged and a method whose
 * docstring alone changed (RELEASE_FUNCTIONS).
 */
export function makeReleaseSdists(
  dir: string,
  olderAt = '2024-03-01T10:00:00Z',
  newerAt = '2026-02-01T10:00:00Z',
): ReleaseSdists {
  return {
    older: release(dir, '1.0', olderAt),
    newer: release(dir, '1.1', newerAt),
    project: PROJECT,
    module: `${PROJECT}/text.py`,
  };
}
