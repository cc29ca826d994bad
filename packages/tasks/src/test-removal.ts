import { posix } from 'node:path';
import type { FunctionRecord, LineReplacement } from '@repocod/core';
import { isTestCodePath, splitLinesKeepingEnds } from '@repocod/core';
import type { PatchPair } from './code-patches.js';
import { filePatchPair } from './code-patches.js';
import { linearize } from './c3-linearization.js';

/** A pytest node id split into its file and the qualified name of its test function. */
export interface TestLocation {
  readonly file: string;
  /** `TestClass.test_name` (nested classes joined by dots), parameters dropped. */
  readonly qualname: string;
}

/** `tests/test_x.py::TestC::test_y[a-b]` → `tests/test_x.py`, `TestC.test_y`. */
export function testLocation(nodeId: string): TestLocation {
  // Parameters may hold `::` themselves: they go first.
  const bracket = nodeId.indexOf('[');
  const [file, ...parts] = (bracket === -1 ? nodeId : nodeId.slice(0, bracket)).split('::');
  return { file: file ?? nodeId, qualname: parts.join('.') };
}

/** What test removal needs of a parsed test file: its functions, and the classes' other statements. */
export interface TestFileModel {
  readonly file: string;
  readonly text: string;
  readonly functions: readonly Pick<FunctionRecord, 'qualname' | 'className' | 'definitionSpan'>[];
  /** For each class: the line spans of every statement of its body (methods included). */
  readonly classBodies: ReadonlyMap<string, readonly { readonly start: number; readonly end: number }[]>;
  /** For each class: its bases as written (`SharedTests`, `mod.Base`). */
  readonly classBases: ReadonlyMap<string, readonly string[]>;
  /**
   * The other statement blocks that may hold tests, outside functions: the bodies of `if`, `elif`,
   * `else`, `try`, `except`, `finally`, `with`, `for` and `while` (sympy defines tests under
   * `if lfortran and cin:`), each with the spans of its statements.
   */
  readonly blocks?: readonly {
    readonly line: number;
    readonly statements: readonly { readonly start: number; readonly end: number }[];
  }[];
}

/** Bases from elsewhere known to define no test: the search goes on past them. */
const TEST_FREE_BASES: ReadonlySet<string> = new Set(['object', 'unittest.TestCase', 'TestCase']);

/** Where a test function is defined: a file of the repository and the function's qualified name in it. */
export interface TestDefinition {
  readonly file: string;
  readonly qualname: string;
}

/** The parsed test files, by path; a Map, or a lazy lookup that parses a file when first asked. */
export interface TestFileModels {
  get(file: string): TestFileModel | undefined;
}

/**
 * Where a base class written in a test file (`CFEncodedBase`, `helpers.SharedTests`) is defined, when
 * it is a class of the repository: imports followed (see indexedBaseResolver). Null for a base from
 * outside the repository or one that cannot be told statically.
 */
export type BaseResolver = (file: string, written: string) => TestDefinition | null;

/** The base resolver that knows only each file's own classes. */
export const SAME_FILE_BASES: BaseResolver = () => null;

/** A class in a method resolution order: one of the repository's test files, or a base from elsewhere. */
type OrderEntry =
  | { readonly kind: 'class'; readonly file: string; readonly qualname: string }
  | { readonly kind: 'foreign'; readonly written: string };

/**
 * Where a test method runs from: `TestBar.test_color` is defined in `SharedTests` when TestBar
 * inherits it (seaborn's categorical tests share most of theirs this way), and xarray's
 * `test_conventions.py::TestCFEncodedDataStore` inherits its tests from `CFEncodedBase` in
 * `test_backends.py`. Looked up along the class's method resolution order (C3) over the classes the
 * resolver can place; a base it cannot place (other than the test-free ones) may define the test,
 * and its source is not known, so the search ends there. Null when no known class defines it.
 */
export function definingTest(
  models: TestFileModels,
  location: TestLocation,
  resolveBase: BaseResolver = SAME_FILE_BASES,
): TestDefinition | null {
  const found = definedAs(models, location, resolveBase);
  if (found !== null) return found;
  // A test a parameterizing decorator made (datasets' `@parameterized.named_parameters` on a class turns
  // `test_x` into `test_x_in_memory` and `test_x_on_disk`) is defined by the test whose name it extends,
  // the longest one: removing it removes every variant, and restoring it restores them.
  const dot = location.qualname.lastIndexOf('.');
  const owner = location.qualname.slice(0, dot + 1);
  const name = location.qualname.slice(dot + 1);
  for (let cut = name.lastIndexOf('_'); cut > 0; cut = name.lastIndexOf('_', cut - 1)) {
    if (!name.slice(0, cut).startsWith('test')) break;
    const base = definedAs(models, { file: location.file, qualname: owner + name.slice(0, cut) }, resolveBase);
    if (base !== null) return base;
  }
  return null;
}

function definedAs(models: TestFileModels, location: TestLocation, resolveBase: BaseResolver): TestDefinition | null {
  const model = models.get(location.file);
  if (model === undefined) return null;
  if (model.functions.some((fn) => fn.qualname === location.qualname)) return location;
  const dot = location.qualname.lastIndexOf('.');
  if (dot === -1 || !model.classBases.has(location.qualname.slice(0, dot))) return null;
  const method = location.qualname.slice(dot + 1);
  const owner = { kind: 'class', file: location.file, qualname: location.qualname.slice(0, dot) } as const;
  const order = methodResolutionOrder(models, resolveBase, owner);
  for (const owner of order.slice(1)) {
    if (owner.kind === 'foreign') {
      if (TEST_FREE_BASES.has(owner.written)) continue;
      return null;
    }
    const qualname = `${owner.qualname}.${method}`;
    if (models.get(owner.file)?.functions.some((fn) => fn.qualname === qualname)) return { file: owner.file, qualname };
  }
  return null;
}

/** `definingTest` within one file: the defining qualified name, or null. */
export function definingQualname(model: TestFileModel, qualname: string): string | null {
  const found = definingTest(new Map([[model.file, model]]), { file: model.file, qualname });
  return found === null ? null : found.qualname;
}

function entryKey(entry: OrderEntry): string {
  return entry.kind === 'class' ? `${entry.file}::${entry.qualname}` : `?${entry.written}`;
}

/** C3 linearisation of a class over the classes the resolver places; a base from elsewhere stands alone in it. */
function methodResolutionOrder(
  models: TestFileModels,
  resolveBase: BaseResolver,
  entry: OrderEntry,
  seen: ReadonlySet<string> = new Set(),
): OrderEntry[] {
  if (entry.kind === 'foreign') return [entry];
  const key = entryKey(entry);
  // A cycle of bases (Python would refuse the class): cut it.
  if (seen.has(key)) return [];
  const inner = new Set([...seen, key]);
  const written = models.get(entry.file)?.classBases.get(entry.qualname) ?? [];
  const parents = written.map((base) => placeBase(models, resolveBase, entry.file, base));
  const orderOf = (parent: OrderEntry): OrderEntry[] => methodResolutionOrder(models, resolveBase, parent, inner);
  return linearize<OrderEntry>(entry, parents, orderOf, entryKey);
}

function placeBase(models: TestFileModels, resolveBase: BaseResolver, file: string, written: string): OrderEntry {
  if (models.get(file)?.classBases.has(written)) return { kind: 'class', file, qualname: written };
  const found = resolveBase(file, written);
  const known = found !== null && models.get(found.file)?.classBases.has(found.qualname) === true;
  return known ? { kind: 'class', ...found } : { kind: 'foreign', written };
}

/**
 * The edits that remove the given test functions (qualified names defined in this file) from one test
 * file: each whole definition, decorators included. A class body or another block (an `if` branch, a
 * `try`) that would be left empty keeps one `pass` at the indentation of its last removed statement, so
 * that the module still imports.
 */
export function testRemovalEdits(model: TestFileModel, qualnames: ReadonlySet<string>): LineReplacement[] {
  const lines = splitLinesKeepingEnds(model.text);
  const removed = model.functions.filter((fn) => qualnames.has(fn.qualname));
  const spans = removed.map((fn) => fn.definitionSpan).sort((a, b) => a.start - b.start);
  const edits: LineReplacement[] = spans.map((span) => ({ start: span.start, end: span.end, lines: [] }));
  // Blocks emptied by the removal get a `pass` in place of their last removed statement.
  const blocks = [
    ...[...model.classBodies].map(([className, body]) => ({ body, what: `tests of ${className}` })),
    ...(model.blocks ?? []).map((block) => ({
      body: block.statements,
      what: `tests of the block at line ${block.line}`,
    })),
  ];
  for (const { body, what } of blocks) {
    const remaining = body.filter(
      (statement) => !spans.some((span) => span.start <= statement.start && statement.end <= span.end),
    );
    if (remaining.length > 0 || body.length === 0) continue;
    const last = edits
      .filter((edit) => body.some((statement) => edit.start <= statement.start && statement.end <= edit.end))
      .at(-1);
    if (last === undefined) continue;
    const firstLine = lines[last.start - 1] ?? '';
    const indent = /^[ \t]*/.exec(firstLine)?.[0] ?? '    ';
    const ending = firstLine.endsWith('\r\n') ? '\r\n' : '\n';
    edits[edits.indexOf(last)] = {
      ...last,
      lines: [`${indent}pass  # ${what} removed for the task${ending}`],
    };
  }
  return edits;
}

/**
 * One patch pair over every test file a task's tests are defined in, files in path order. An
 * inherited test is removed where it is defined (see definingTest), which may be another file than
 * its node id's: every class that inherits it loses it in the pre state, and gold.test restores them
 * all. Tests not found (generated by a plugin, defined by assignment, inherited from a class the
 * resolver cannot place) are returned as missing, by node id without parameters. Node ids are pytest's,
 * relative to the folder it runs in (`packageRoot`, a manifest's `package_root`: plotly.py's
 * `packages/python/plotly`); files and patches are the repository's, relative to its root. A test in a
 * file that is not test code (a doctest: astropy's `astropy/stats/funcs.py::astropy.stats.funcs.bootstrap`,
 * or a `.rst` page's) stays where it is: it is in the docstring the prompt shows, or in the docs, and it
 * fails in the pre state and passes with the gold code like any other.
 */
/**
 * A doctest's node id: a page that is not Python (`docs/circ.rst::circ.rst`), or a library module's
 * docstring, named by its dotted module path (`astropy/stats/funcs.py::astropy.stats.funcs.bootstrap`).
 */
function isDoctest(location: TestLocation): boolean {
  if (!location.file.endsWith('.py')) return true;
  if (isTestCodePath(location.file)) return false;
  const parts = location.file.replace(/\.py$/, '').split('/');
  const module = parts.at(-1) === '__init__' ? parts.at(-2) : parts.at(-1);
  return module !== undefined && location.qualname.split('.').includes(module);
}

export function testPatches(
  models: TestFileModels,
  nodeIds: readonly string[],
  resolveBase: BaseResolver = SAME_FILE_BASES,
  packageRoot = '.',
): PatchPair & { missing: string[] } {
  const byFile = new Map<string, Set<string>>();
  const missing = new Set<string>();
  for (const nodeId of nodeIds) {
    const node = testLocation(nodeId);
    const location = { ...node, file: posix.join(packageRoot, node.file) };
    if (isDoctest(location)) continue;
    const found = definingTest(models, location, resolveBase);
    if (found === null) missing.add(`${location.file}::${location.qualname}`);
    else byFile.set(found.file, (byFile.get(found.file) ?? new Set()).add(found.qualname));
  }
  let pre = '';
  let gold = '';
  for (const file of [...byFile.keys()].sort()) {
    const model = models.get(file) as TestFileModel;
    const pair = filePatchPair(file, model.text, testRemovalEdits(model, byFile.get(file) ?? new Set()));
    pre += pair.pre;
    gold += pair.gold;
  }
  return { pre, gold, missing: [...missing].sort() };
}
