import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { contentHash } from './content-hash.js';
import { RepocodError, isRepocodError } from './errors.js';
import { installedVersion } from './package-version.js';

describe('installedVersion', () => {
  it('reads the version of a package that does not export package.json', () => {
    expect(installedVersion(createRequire(import.meta.url), 'vitest')).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('contentHash and RepocodError', () => {
  it('hashes bytes and strings alike', () => {
    expect(contentHash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(contentHash(new TextEncoder().encode('abc'))).toBe(contentHash('abc'));
  });

  it('carries a code', () => {
    const error = new RepocodError('config-invalid', 'x.json: bad');
    expect(isRepocodError(error) && error.code).toBe('config-invalid');
    expect(isRepocodError(new Error('x'))).toBe(false);
  });
});
