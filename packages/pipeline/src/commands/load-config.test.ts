import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RepocodError, isRepocodError } from '@repocod/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_EXTRACTION_CONFIG, extractorFingerprint } from '../steps/extractor-fingerprint.js';
import { loadExtractionConfig } from './load-config.js';
import { makeTempDir } from '../testing/test-support.js';

let dir: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = makeTempDir());
});
afterEach(() => cleanup());

function configFile(text: string): string {
  const path = join(dir, 'repocod.json');
  writeFileSync(path, text);
  return path;
}

/** The RepocodError that loading `path` throws; fails the test when it loads. */
function loadError(path: string): RepocodError {
  try {
    loadExtractionConfig(path);
  } catch (error) {
    if (isRepocodError(error)) return error;
    throw error;
  }
  throw new Error(`${path} loaded, but an error was expected`);
}

describe('loadExtractionConfig', () => {
  it('reads the candidate filter and keeps the other defaults', () => {
    const path = configFile(
      JSON.stringify({ candidateFilter: { minDocstringLinesExclusive: 20, includeNested: false } }),
    );
    const config = loadExtractionConfig(path);
    expect(config.candidateFilter).toEqual({ minDocstringLinesExclusive: 20, includeNested: false });
    expect(config.settings).toBe(DEFAULT_EXTRACTION_CONFIG.settings);
    expect(config.testCode).toBe(DEFAULT_EXTRACTION_CONFIG.testCode);
    expect(extractorFingerprint(config)).not.toBe(extractorFingerprint(DEFAULT_EXTRACTION_CONFIG));
  });

  it("fills a field left out with REPOCOD's default", () => {
    expect(
      loadExtractionConfig(configFile('{"candidateFilter": {"minDocstringLinesExclusive": 5}}')).candidateFilter,
    ).toEqual({
      minDocstringLinesExclusive: 5,
      includeNested: true,
    });
  });

  it('gives the defaults for an empty object, with the same fingerprint', () => {
    const config = loadExtractionConfig(configFile('{}'));
    expect(config).toEqual(DEFAULT_EXTRACTION_CONFIG);
    expect(extractorFingerprint(config)).toBe(extractorFingerprint(DEFAULT_EXTRACTION_CONFIG));
    // The file in the example is REPOCOD's own filter.
    const example = configFile('{ "candidateFilter": { "minDocstringLinesExclusive": 10, "includeNested": true } }');
    expect(extractorFingerprint(loadExtractionConfig(example))).toBe(extractorFingerprint(DEFAULT_EXTRACTION_CONFIG));
  });

  it('names a missing file', () => {
    const path = join(dir, 'missing.json');
    const error = loadError(path);
    expect(error.code).toBe('config-invalid');
    expect(error.message).toContain(path);
    expect(error.message).toContain('ENOENT');
  });

  it('names a file that is not JSON', () => {
    const path = configFile('{ "candidateFilter": { "minDocstringLinesExclusive": 10, } }');
    const error = loadError(path);
    expect(error.code).toBe('config-invalid');
    expect(error.message).toMatch(new RegExp(`^${path.replaceAll('.', '\\.')}: not valid JSON`));
  });

  it('refuses a config that is not an object', () => {
    for (const text of ['[]', '10', 'null']) {
      const error = loadError(configFile(text));
      expect(error.message).toContain('repocod.json');
      expect(error.message).toContain('must be a JSON object');
    }
  });

  it('refuses an unknown top-level field, naming the file and the field', () => {
    const path = configFile('{"candidateFilters": {"minDocstringLinesExclusive": 20}}');
    const error = loadError(path);
    expect(error.code).toBe('config-invalid');
    expect(error.message).toContain(path);
    expect(error.message).toContain('"candidateFilters"');
  });

  it('refuses an unknown field of the candidate filter, naming the file and the field', () => {
    // A typo must not leave the default of 10 lines silently in force.
    const path = configFile('{"candidateFilter": {"minDocstringLines": 20}}');
    const error = loadError(path);
    expect(error.code).toBe('config-invalid');
    expect(error.message).toContain(path);
    expect(error.message).toContain('candidateFilter');
    expect(error.message).toContain('"minDocstringLines"');
  });

  it('refuses a candidate filter that is not an object', () => {
    for (const text of ['{"candidateFilter": [20]}', '{"candidateFilter": null}', '{"candidateFilter": 20}']) {
      const error = loadError(configFile(text));
      expect(error.message).toContain('repocod.json');
      expect(error.message).toContain('candidateFilter');
    }
  });

  it('refuses a minDocstringLinesExclusive of the wrong type, naming the file and the field', () => {
    for (const value of ['"ten"', '10.5', '-1', 'true', 'null']) {
      const path = configFile(`{"candidateFilter": {"minDocstringLinesExclusive": ${value}}}`);
      const error = loadError(path);
      expect(error.code).toBe('config-invalid');
      expect(error.message).toContain(path);
      expect(error.message).toContain('candidateFilter');
      expect(error.message).toContain('"minDocstringLinesExclusive"');
      expect(error.message).toContain(value);
    }
  });

  it('refuses an includeNested that is not a boolean', () => {
    const error = loadError(configFile('{"candidateFilter": {"includeNested": "yes"}}'));
    expect(error.message).toContain('"includeNested"');
    expect(error.message).toContain('"yes"');
  });
});

describe('loadExtractionConfig: testCode', () => {
  it('reads the test-code folders a curator chose', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'repocod-config-')), 'config.json');
    writeFileSync(path, JSON.stringify({ testCode: { folderNames: ['tests'] } }));
    expect(loadExtractionConfig(path).testCode.folderNames).toEqual(['tests']);
    writeFileSync(path, JSON.stringify({ testCode: { folderNames: 'tests' } }));
    expect(() => loadExtractionConfig(path)).toThrow(/config.json: testCode: field "folderNames"/);
  });
});
