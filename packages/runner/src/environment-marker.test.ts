import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ENVIRONMENT_MARKER_FILE,
  readEnvironmentMarker,
  writeEnvironmentMarker,
  type EnvironmentMarker,
} from './environment-marker.js';

const scratch = mkdtempSync(join(tmpdir(), 'repocod-marker-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const MARKER: EnvironmentMarker = {
  format: 'repocod-env-marker/1',
  name: 'demo',
  key: 'a'.repeat(64),
  recipeHash: 'b'.repeat(64),
  baseCommit: null,
  installer: 'pip',
  interpreter: '/usr/bin/python3.11',
  pythonVersion: '3.11.7',
  seedPackages: ['pip==24.2'],
  harnessPackages: ['coverage==7.6.1'],
  packages: ['coverage==7.6.1', 'pip==24.2'],
  packagesHash: 'c'.repeat(64),
  builtAt: '2024-09-01T00:00:00.000Z',
  buildSeconds: 12.5,
};

describe('environment marker', () => {
  it('reads back what was written, leaving no temporary file', () => {
    writeEnvironmentMarker(scratch, MARKER);
    expect(readEnvironmentMarker(scratch)).toEqual(MARKER);
    expect(existsSync(join(scratch, `${ENVIRONMENT_MARKER_FILE}.tmp`))).toBe(false);
  });

  it('is absent for a folder without one, a torn file, or a marker of another shape', () => {
    expect(readEnvironmentMarker(join(scratch, 'nowhere'))).toBeNull();
    const torn = mkdtempSync(join(scratch, 'torn-'));
    writeFileSync(join(torn, ENVIRONMENT_MARKER_FILE), JSON.stringify(MARKER).slice(0, 40));
    expect(readEnvironmentMarker(torn)).toBeNull();
    const other = mkdtempSync(join(scratch, 'other-'));
    writeFileSync(join(other, ENVIRONMENT_MARKER_FILE), JSON.stringify({ ...MARKER, installer: 'conda' }));
    expect(readEnvironmentMarker(other)).toBeNull();
  });
});
