import { createRequire } from 'node:module';
import { installedVersion } from '@repocod/core';
import { PARSER_VERSIONS } from '@repocod/python';

const require = createRequire(import.meta.url);

/** Versions that decide the figures we store: part of the extractor fingerprint. */
export const METRIC_VERSIONS: readonly string[] = [
  ...PARSER_VERSIONS,
  ...['escomplex', 'gpt-tokenizer'].map((name) => `${name}@${installedVersion(require, name)}`),
];
