import type { FileIssue, FunctionRecord, TestCodePatterns } from '@repocod/core';
import { isTestCodePath } from '@repocod/core';
import type { Parser, Tree } from 'web-tree-sitter';
import { extractFunctions, syntaxErrorLines } from './extract-functions.js';
import { decodePythonSource, splitLinesKeepingEndings } from './source-text.js';

/** A parsed module. The caller owns `tree` and must `delete()` it (it lives in wasm memory). */
export interface ParsedPythonFile {
  readonly file: string;
  readonly text: string;
  readonly lines: readonly string[];
  readonly tree: Tree;
  readonly isTestCode: boolean;
  readonly functions: readonly FunctionRecord[];
  /** Set when the file has syntax errors: the functions listed are the ones that parsed cleanly. */
  readonly issue: FileIssue | null;
}

export type ParseOutcome =
  | { readonly ok: true; readonly parsed: ParsedPythonFile }
  | { readonly ok: false; readonly issue: FileIssue };

export interface ParseOptions {
  readonly testCode?: TestCodePatterns;
}

/** `file` is the repository-relative path, used in records and messages. */
export function parsePythonFile(
  parser: Parser,
  bytes: Uint8Array,
  file: string,
  options: ParseOptions = {},
): ParseOutcome {
  const decoded = decodePythonSource(bytes, file);
  if (!decoded.ok) return decoded;
  return { ok: true, parsed: parsePythonText(parser, decoded.text, file, options) };
}

export function parsePythonText(
  parser: Parser,
  text: string,
  file: string,
  options: ParseOptions = {},
): ParsedPythonFile {
  const tree = parser.parse(text);
  if (tree === null) throw new Error(`tree-sitter returned no tree for ${file}`);
  const lines = splitLinesKeepingEndings(text);
  const isTestCode = isTestCodePath(file, options.testCode);
  let functions: FunctionRecord[];
  let errorLines: number[];
  try {
    functions = extractFunctions(tree.rootNode, { file, lines, isTestCode });
    errorLines = syntaxErrorLines(tree.rootNode);
  } catch (error) {
    tree.delete();
    throw error;
  }
  const issue: FileIssue | null =
    errorLines.length === 0
      ? null
      : {
          file,
          kind: 'syntax-error',
          lines: errorLines,
          message: `${file}: syntax error at line ${errorLines.slice(0, 5).join(', ')}${
            errorLines.length > 5 ? ', …' : ''
          }; kept only the functions that parse cleanly`,
        };
  return { file, text, lines, tree, isTestCode, functions, issue };
}
