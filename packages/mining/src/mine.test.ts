import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { PreparedRepository } from '@repocod/runner';
import { LocalExecutor, loadManifest, prepareRepository, runnerPaths } from '@repocod/runner';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MiningEvent } from './mining-events.js';
import { mineRepository } from './mine.js';
import { MemoryMiningStore } from './mining-store.js';
import type { MiningFunction } from './mutation-target.js';
import { mutationTarget } from './mutation-target.js';

const PROJECT_ROOT = resolve(new URL('../../..', import.meta.url).pathname);
const MANIFEST = resolve(PROJECT_ROOT, 'datasets/mining-edge-cases/manifest.yaml');
let prepared: PreparedRepository;
let core: string;

beforeAll(async () => {
  const entry = loadManifest(MANIFEST).repositories[0];
  if (entry === undefined) throw new Error('no edge-case entry');
  prepared = await prepareRepository(
    entry,
    runnerPaths(PROJECT_ROOT, mkdtempSync(join(tmpdir(), 'repocod-mine-state-'))),
    { workers: 2 },
  );
  core = readFileSync(join(prepared.checkout.path, 'edgecases/core.py'), 'utf8');
}, 300_000);

/** A function of edgecases/core.py by its lines (the fixture is ours; the test checks they still match). */
function coreFunction(
  qualname: string,
  lines: { definition: [number, number]; docstring: [number, number] },
): MiningFunction {
  const name = qualname.split('.').at(-1) ?? qualname;
  const defLine = core.split('\n').findIndex((line) => line.startsWith(`def ${name}(`)) + 1;
  expect(defLine).toBe(lines.docstring[0] - 1);
  return {
    id: `edge:${qualname}`,
    file: 'edgecases/core.py',
    name,
    qualname,
    definitionSpan: { start: lines.definition[0], end: lines.definition[1] },
    signatureSpan: { start: defLine, end: defLine },
    docstringSpan: { start: lines.docstring[0], end: lines.docstring[1] },
  };
}

describe('mineRepository', () => {
  it('falls back to a fresh process with the file patched when the in-process swap cannot find the code', {
    timeout: 300_000,
  }, async () => {
    const double = coreFunction('double', { definition: [14, 17], docstring: [16, 16] });
    const shout = coreFunction('shout', { definition: [53, 55], docstring: [54, 54] });
    // Same lines as shout, but a name no live code object has: the plugin reports it unswappable.
    const renamed: MiningFunction = { ...shout, id: 'edge:renamed', name: 'shout_renamed', qualname: 'shout_renamed' };
    const targets = [double, shout, renamed].map((fn) => mutationTarget(fn, core));
    const events: MiningEvent[] = [];
    const summary = await mineRepository(prepared, new LocalExecutor(prepared), targets, {
      mode: 'fast',
      store: new MemoryMiningStore(),
      onEvent: (event) => events.push(event),
    });
    const byId = new Map(summary.functions.map((fn) => [fn.id, fn]));
    expect(byId.get('edge:double')).toMatchObject({
      status: 'tests',
      method: 'in-process',
      tests: ['tests/test_core.py::test_registry_double'],
    });
    expect(byId.get('edge:shout')).toMatchObject({
      status: 'tests',
      method: 'in-process',
      tests: ['tests/test_core.py::test_shout_in_child_process'],
    });
    expect(byId.get('edge:renamed')).toMatchObject({
      status: 'tests',
      method: 'fresh-process',
      tests: ['tests/test_core.py::test_shout_in_child_process'],
    });
    expect(summary.phases.map((phase) => phase.phase)).toEqual(['baseline', 'mutation', 'fallback']);
    const done = events.filter((event) => event.kind === 'function-done');
    expect(done.map((event) => (event.kind === 'function-done' ? event.done : 0))).toEqual([1, 2, 3]);
  });
});
