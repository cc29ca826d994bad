import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FunctionRecord, LevelMode } from '@repocod/core';
import { isCandidate, LEVEL_MODES } from '@repocod/core';
import { listPythonFiles, loadPythonParser, parsePythonText } from '@repocod/python';
import { beforeAll, describe, expect, it } from 'vitest';
import { classifyContext } from './classify-context.js';
import { classifyLevels } from './classify-levels.js';
import type { RepositoryIndex } from './repository-index.js';
import { buildRepositoryIndex } from './repository-index.js';

const FIXTURE = fileURLToPath(new URL('../../../datasets/level-modes-fixture', import.meta.url));
const DEMO = fileURLToPath(new URL('../../../datasets/demo', import.meta.url));

interface Project {
  readonly index: RepositoryIndex;
  readonly functions: readonly FunctionRecord[];
}

async function load(root: string): Promise<Project> {
  const parser = await loadPythonParser();
  const sources = new Map(listPythonFiles(root).map((file) => [file, readFileSync(`${root}/${file}`, 'utf8')]));
  const functions: FunctionRecord[] = [];
  for (const [file, text] of sources) {
    const parsed = parsePythonText(parser, text, file);
    parsed.tree.delete();
    functions.push(...parsed.functions);
  }
  return { index: buildRepositoryIndex(parser, sources), functions };
}

let fixture: Project;
let demo: Project;
beforeAll(async () => {
  fixture = await load(FIXTURE);
  demo = await load(DEMO);
});

function target(qualname: string, file = 'levelpkg/targets.py'): FunctionRecord {
  const found = fixture.functions.find((fn) => fn.file === file && fn.qualname === qualname);
  if (found === undefined) throw new Error(`no ${qualname} in ${file}`);
  return found;
}

/** Each mode's level, and each mode's calls as `line callee → file:definitionLine qualname (rule)`. */
function labels(qualname: string, file?: string): Record<LevelMode, { level: string; calls: string[] }> {
  const levels = classifyLevels(fixture.index, target(qualname, file));
  return Object.fromEntries(
    LEVEL_MODES.map((mode) => [
      mode,
      {
        level: levels[mode].level,
        calls: levels[mode].calls.map(
          (call) => `${call.line} ${call.callee} → ${call.file}:${call.definitionLine} ${call.qualname} (${call.rule})`,
        ),
      },
    ]),
  ) as Record<LevelMode, { level: string; calls: string[] }>;
}

function levelsOf(qualname: string, file?: string): Record<LevelMode, string> {
  const all = labels(qualname, file);
  return { 'repocod-v1': all['repocod-v1'].level, 'repocod-v4': all['repocod-v4'].level, deps: all.deps.level };
}

describe('level modes: a relative import against an absolute one', () => {
  it('repocod-v1 follows a relative import out of the file, and records the call', () => {
    expect(labels('relative_call')['repocod-v1']).toEqual({
      level: 'repo-level',
      calls: ['17 helper → levelpkg/helpers.py:4 helper (relative-import)'],
    });
  });

  it('repocod-v1 resolves an absolute import of the package to nothing; v4 and deps follow it', () => {
    expect(levelsOf('absolute_call')).toEqual({
      'repocod-v1': 'self-contained',
      'repocod-v4': 'repo-level',
      deps: 'repo-level',
    });
    expect(levelsOf('absolute_module_call')).toEqual({
      'repocod-v1': 'self-contained',
      'repocod-v4': 'repo-level',
      deps: 'repo-level',
    });
  });

  it('repocod-v1 follows a re-export of the package, an import inside the function and a relative star import', () => {
    expect(labels('reexport_call')['repocod-v1'].calls).toEqual([
      '42 reexported → levelpkg/helpers.py:8 reexported (relative-import)',
    ]);
    expect(labels('inner_import_call')['repocod-v1'].calls).toEqual([
      '84 twice → levelpkg/helpers.py:8 reexported (relative-import)',
    ]);
    expect(labels('uses_star', 'levelpkg/sub/stars.py')['repocod-v1']).toEqual({
      level: 'repo-level',
      calls: ['6 starred → levelpkg/helpers.py:12 starred (relative-import)'],
    });
  });

  it('a module attribute call counts only under full resolution', () => {
    expect(levelsOf('module_attribute_call')).toEqual({
      'repocod-v1': 'self-contained',
      'repocod-v4': 'repo-level',
      deps: 'repo-level',
    });
  });
});

describe('level modes: a call against a read', () => {
  it('a function passed without a call counts for v4 and deps, not for repocod-v1', () => {
    expect(levelsOf('reads_only')).toEqual({
      'repocod-v1': 'self-contained',
      'repocod-v4': 'repo-level',
      deps: 'repo-level',
    });
  });

  it('a class only named in isinstance counts for deps alone', () => {
    expect(levelsOf('isinstance_check')).toEqual({
      'repocod-v1': 'self-contained',
      'repocod-v4': 'self-contained',
      deps: 'repo-level',
    });
  });
});

describe('level modes: a class instantiated against its method called', () => {
  it('instantiating a class is not a call of a function for repocod-v1; v4 counts the constructor', () => {
    expect(labels('instantiates')['repocod-v1']).toEqual({ level: 'self-contained', calls: [] });
    expect(labels('instantiates')['repocod-v4']).toEqual({
      level: 'repo-level',
      calls: ['61 Parser → levelpkg/helpers.py:16 Parser (instantiated)'],
    });
  });

  it('a method of a relatively imported class, on the class or on an instance made on the spot', () => {
    expect(labels('class_method_call')['repocod-v1'].calls).toEqual([
      '67 Parser.build → levelpkg/helpers.py:21 Parser.build (relative-class-method)',
    ]);
    expect(labels('instance_method_call')['repocod-v1'].calls).toEqual([
      '72 Parser(...).parse → levelpkg/helpers.py:17 Parser.parse (relative-class-method)',
    ]);
    expect(levelsOf('instance_method_call')).toEqual({
      'repocod-v1': 'repo-level',
      'repocod-v4': 'repo-level',
      deps: 'repo-level',
    });
  });
});

describe('level modes: a same-class method against an inherited one', () => {
  it('self.m() of the class body is file-level under every mode', () => {
    expect(labels('Widget.own_method_call')['repocod-v1']).toEqual({
      level: 'file-level',
      calls: ['98 self.own → levelpkg/targets.py:93 Widget.own (own-class-method)'],
    });
    expect(levelsOf('Widget.own_method_call')).toEqual({
      'repocod-v1': 'file-level',
      'repocod-v4': 'file-level',
      deps: 'file-level',
    });
  });

  it('an inherited method counts only through the MRO (v4, deps)', () => {
    expect(levelsOf('Widget.inherited_call')).toEqual({
      'repocod-v1': 'self-contained',
      'repocod-v4': 'repo-level',
      deps: 'repo-level',
    });
    expect(labels('Widget.inherited_call')['repocod-v4'].calls).toEqual([
      '102 self.inherited → levelpkg/helpers.py:26 Base.inherited (resolved)',
    ]);
  });
});

describe('level modes: a nested def, a same-file function, recursion', () => {
  it('repocod-v1 counts a call of a helper the target defines; the others take it as part of the solution', () => {
    expect(labels('nested_call')['repocod-v1']).toEqual({
      level: 'file-level',
      calls: ['56 inner → levelpkg/targets.py:53 nested_call.<locals>.inner (nested-def)'],
    });
    expect(levelsOf('nested_call')).toEqual({
      'repocod-v1': 'file-level',
      'repocod-v4': 'self-contained',
      deps: 'self-contained',
    });
  });

  it('a function of the same file is file-level under every mode; the target itself is not context', () => {
    expect(levelsOf('same_file_call')).toEqual({
      'repocod-v1': 'file-level',
      'repocod-v4': 'file-level',
      deps: 'file-level',
    });
    expect(levelsOf('recursive')).toEqual({
      'repocod-v1': 'self-contained',
      'repocod-v4': 'self-contained',
      deps: 'self-contained',
    });
  });
});

describe('level modes on the demo', () => {
  function candidates(): FunctionRecord[] {
    return demo.functions.filter((fn) => isCandidate(fn));
  }

  it('deps is classifyContext, level for level', () => {
    for (const fn of candidates())
      expect(classifyLevels(demo.index, fn).deps.level, fn.qualname).toBe(classifyContext(demo.index, fn).level);
  });

  it('labels the 52 candidates under each mode with the mixes pinned here', () => {
    const mix = Object.fromEntries(
      LEVEL_MODES.map((mode) => {
        const counts = { 'self-contained': 0, 'file-level': 0, 'repo-level': 0 };
        for (const fn of candidates()) counts[classifyLevels(demo.index, fn)[mode].level]++;
        return [mode, counts];
      }),
    );
    expect(mix).toEqual({
      'repocod-v1': { 'self-contained': 35, 'file-level': 10, 'repo-level': 7 },
      'repocod-v4': { 'self-contained': 26, 'file-level': 11, 'repo-level': 15 },
      deps: { 'self-contained': 26, 'file-level': 10, 'repo-level': 16 },
    });
  });
});
