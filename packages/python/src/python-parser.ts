import { createRequire } from 'node:module';
import { installedVersion } from '@repocod/core';
import { Language, Parser } from 'web-tree-sitter';

const require = createRequire(import.meta.url);

/** The grammar is the wasm that tree-sitter-python itself ships, so its version is pinned with the package. */
export const PYTHON_GRAMMAR_WASM = require.resolve('tree-sitter-python/tree-sitter-python.wasm');

let loading: Promise<Parser> | undefined;

/**
 * One parser per thread: loading the wasm takes tens of milliseconds and a parser is reusable, so
 * every caller in a thread shares it. Parsing is synchronous, so sharing is safe.
 */
export function loadPythonParser(): Promise<Parser> {
  loading ??= (async () => {
    await Parser.init();
    const language = await Language.load(PYTHON_GRAMMAR_WASM);
    const parser = new Parser();
    parser.setLanguage(language);
    return parser;
  })();
  return loading;
}

/** Versions that decide how a file parses: part of the extractor fingerprint. */
export const PARSER_VERSIONS: readonly string[] = ['tree-sitter-python', 'web-tree-sitter'].map(
  (name) => `${name}@${installedVersion(require, name)}`,
);
