import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FunctionRecord } from '@repocod/core';
import { isCandidate } from '@repocod/core';
import { listPythonFiles, loadPythonParser, parsePythonText } from '@repocod/python';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContextClassification } from './classify-context.js';
import { classifyContext } from './classify-context.js';
import { buildRepositoryIndex } from './repository-index.js';

const DEMO = fileURLToPath(new URL('../../../datasets/demo', import.meta.url));

/** Every candidate of the demo (docstring over 10 lines, library code), by `file::qualname`. */
const results = new Map<string, ContextClassification>();

beforeAll(async () => {
  const parser = await loadPythonParser();
  const sources = new Map(listPythonFiles(DEMO).map((file) => [file, readFileSync(`${DEMO}/${file}`, 'utf8')]));
  const index = buildRepositoryIndex(parser, sources);
  const candidates: FunctionRecord[] = [];
  for (const [file, text] of sources) {
    const parsed = parsePythonText(parser, text, file);
    parsed.tree.delete();
    candidates.push(...parsed.functions.filter((fn) => isCandidate(fn)));
  }
  for (const fn of candidates) results.set(`${fn.file}::${fn.qualname}`, classifyContext(index, fn));
});

function resultFor(key: string): ContextClassification {
  const found = results.get(key);
  if (found === undefined) throw new Error(`${key} is not a candidate of the demo`);
  return found;
}

describe('classifyContext on the demo project', () => {
  it('classifies all 52 candidates, with every level represented', () => {
    expect(results.size).toBe(52);
    const levels = new Set([...results.values()].map((result) => result.level));
    expect([...levels].sort()).toEqual(['file-level', 'repo-level', 'self-contained']);
  });

  it('Warehouse.receive calls two methods of its own class: file-level', () => {
    expect(resultFor('inventory/warehouse.py::Warehouse.receive')).toEqual({
      level: 'file-level',
      dependencies: [
        {
          name: 'self.add_bin',
          kind: 'method',
          qualname: 'Warehouse.add_bin',
          file: 'inventory/warehouse.py',
          line: 105,
          via: 'self',
        },
        {
          name: 'self.locate',
          kind: 'method',
          qualname: 'Warehouse.locate',
          file: 'inventory/warehouse.py',
          line: 146,
          via: 'self',
        },
      ],
    });
  });

  it('restock_all uses chunked through `import inventory.util as u`: repo-level', () => {
    expect(resultFor('inventory/warehouse.py::restock_all')).toEqual({
      level: 'repo-level',
      dependencies: [
        {
          name: 'u.chunked',
          kind: 'function',
          qualname: 'chunked',
          file: 'inventory/util.py',
          line: 203,
          via: 'import',
        },
      ],
    });
  });

  it('PricedItem.price_for reaches validate inherited from Record in models.py: repo-level', () => {
    expect(resultFor('inventory/pricing.py::PricedItem.price_for')).toEqual({
      level: 'repo-level',
      dependencies: [
        {
          name: 'PricingError',
          kind: 'class',
          qualname: 'PricingError',
          file: 'inventory/errors.py',
          line: 31,
          via: 'import',
        },
        {
          name: 'self.validate',
          kind: 'method',
          qualname: 'Record.validate',
          file: 'inventory/models.py',
          line: 115,
          via: 'self',
        },
        {
          name: 'percent_off',
          kind: 'function',
          qualname: 'percent_off',
          file: 'inventory/pricing.py',
          line: 95,
          via: 'local',
        },
        {
          name: 'best_discount',
          kind: 'function',
          qualname: 'best_discount',
          file: 'inventory/pricing.py',
          line: 121,
          via: 'local',
        },
        {
          name: 'round_money',
          kind: 'function',
          qualname: 'round_money',
          file: 'inventory/util.py',
          line: 14,
          via: 'import',
        },
      ],
    });
  });

  it('reports.render_order uses round_money under the alias money', () => {
    const result = resultFor('inventory/reports.py::render_order');
    expect(result.level).toBe('repo-level');
    expect(
      result.dependencies.map((dependency) => `${dependency.name} → ${dependency.file}:${dependency.qualname}`),
    ).toEqual(['format_table → inventory/reports.py:format_table', 'money → inventory/util.py:round_money']);
  });

  it('pure functions that use only builtins and the standard library are self-contained', () => {
    for (const key of [
      'inventory/pricing.py::percent_off',
      'inventory/util.py::round_money',
      'inventory/util.py::retry',
      'inventory/models.py::Record.__repr__',
    ]) {
      expect(resultFor(key), key).toEqual({ level: 'self-contained', dependencies: [] });
    }
  });
});
