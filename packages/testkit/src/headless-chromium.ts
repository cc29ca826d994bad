import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { RepocodError } from '@repocod/core';

/** Where Debian's chromium package puts the browser (.ci/run installs it when missing). */
const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export function chromiumBinary(): string {
  const found = CANDIDATES.find((path) => existsSync(path));
  if (found === undefined)
    throw new RepocodError(
      'tool-missing',
      `no Chromium in ${CANDIDATES.join(', ')}: install Debian's package (apt-get install chromium), as .ci/run does`,
    );
  return found;
}

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', '--no-first-run'];

/** The page's DOM after Chromium loaded and laid it out (`--dump-dom`): what a person's browser has. */
export function renderedDom(htmlFile: string): string {
  return execFileSync(chromiumBinary(), [...FLAGS, '--dump-dom', pathToFileURL(htmlFile).href], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
    timeout: 60_000,
  });
}

/** A screenshot of the page at the given window size, as PNG bytes. */
export function screenshot(htmlFile: string, width: number, height: number): Buffer {
  const folder = mkdtempSync(join(tmpdir(), 'repocod-chromium-'));
  try {
    const file = join(folder, 'page.png');
    execFileSync(
      chromiumBinary(),
      [...FLAGS, `--screenshot=${file}`, `--window-size=${width},${height}`, pathToFileURL(htmlFile).href],
      { stdio: 'ignore', timeout: 60_000 },
    );
    return readFileSync(file);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
