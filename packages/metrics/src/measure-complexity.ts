import escomplex from 'escomplex';
import type { Tree } from 'web-tree-sitter';
import { maintainabilityIndex } from './maintainability.js';
import type { ComplexitySettings } from './python-syntax.js';
import { RADON_5_1_SETTINGS } from './python-syntax.js';
import { pythonWalker } from './radon-walker.js';

/** escomplex's figures for one function. */
export interface FunctionComplexity {
  readonly defLine: number;
  readonly cyclomatic: number;
  readonly halsteadVolume: number;
  readonly halsteadEffort: number;
  readonly logicalLines: number;
  readonly maintainability: number;
}

/**
 * Runs escomplex's engine with our tree-sitter walker over a parsed module and returns the figures
 * of every function, keyed by its `def` line (1-based).
 */
export function measureComplexity(
  tree: Tree,
  text: string,
  settings: ComplexitySettings = RADON_5_1_SETTINGS,
): Map<number, FunctionComplexity> {
  const lastRow = tree.rootNode.endPosition.row + 1;
  const ast = { loc: { start: { line: 1 }, end: { line: lastRow } }, tree, text };
  // Every option is passed explicitly: escomplex falls back to its JavaScript defaults otherwise.
  const options = {
    logicalor: settings.logicalor,
    switchcase: settings.switchcase,
    forin: settings.forin,
    trycatch: settings.trycatch,
    newmi: settings.newmi,
  };
  const report = escomplex.analyse(ast, pythonWalker, options);
  const byLine = new Map<number, FunctionComplexity>();
  for (const fn of report.functions) {
    const defLine = Number(fn.name);
    byLine.set(defLine, {
      defLine,
      cyclomatic: fn.cyclomatic,
      halsteadVolume: fn.halstead.volume,
      halsteadEffort: fn.halstead.effort,
      logicalLines: fn.sloc.logical,
      maintainability: maintainabilityIndex(fn.halstead.effort, fn.cyclomatic, fn.sloc.logical, settings.newmi),
    });
  }
  return byLine;
}
