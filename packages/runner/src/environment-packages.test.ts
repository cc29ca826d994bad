import { describe, expect, it } from 'vitest';
import { listInstalledPackages, packagesHash } from './environment-packages.js';
import { findPythonInterpreter } from './python-interpreter.js';

describe('packagesHash', () => {
  it('depends on the set of packages, not on the order they were listed in', () => {
    const hash = packagesHash(['pytest==8.3.5', 'coverage==7.6.1']);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(packagesHash(['coverage==7.6.1', 'pytest==8.3.5'])).toBe(hash);
    expect(packagesHash(['coverage==7.6.1', 'pytest==8.3.4'])).not.toBe(hash);
  });
});

describe('listInstalledPackages', () => {
  it('lists normalized name==version lines of a real interpreter, sorted', async () => {
    const python = await findPythonInterpreter('3.11');
    const packages = await listInstalledPackages(python.path, process.env);
    expect(packages.length).toBeGreaterThan(0);
    for (const line of packages) expect(line).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*==\S+$/);
    expect(packages.some((line) => line.startsWith('pip=='))).toBe(true);
    expect([...packages].sort()).toEqual(packages);
  });
});
