import { CONTEXT_LEVELS, type ContextLevel } from './context-level.js';
import { RepocodError } from './errors.js';
import { asArray, asObject, numberField, oneOfField, parseStoredJson, stringField } from './json-shape.js';

/**
 * How a task's context level is labelled. REPOCOD labelled its tasks twice: REPOCOD-Lite was selected
 * with the first labelling (`repocod-v1`), the ACL paper corrected it (`repocod-v4`); `deps` is our
 * own dependency classifier, for curators of new datasets. Every task is labelled under all three,
 * so changing the mode re-labels from the catalog without mining again. docs/tasks.md states each
 * rule, and `repocod report` measures each against REPOCOD's published level mixes.
 */
export const LEVEL_MODES = ['repocod-v1', 'repocod-v4', 'deps'] as const;
export type LevelMode = (typeof LEVEL_MODES)[number];

export const LEVEL_MODE_SUMMARIES: Readonly<Record<LevelMode, string>> = {
  'repocod-v1':
    "REPOCOD's first labelling (REPOCOD-Lite's): calls of functions relatively imported from other files are " +
    'repository-level; calls of same-file functions, own-class methods and nested defs file-level',
  'repocod-v4':
    "the ACL paper's corrected rule: the repository functions and methods the solution uses and the classes it " +
    'calls, resolved through every import and the MRO, by the file that defines them',
  deps: 'every repository definition the solution uses (calls, reads, classes), resolved through every import',
};

/** The mode a curator's own project is labelled with unless its manifest or `--levels` says otherwise. */
export const DEFAULT_LEVEL_MODE: LevelMode = 'deps';

/** Reads `--levels` or a manifest's `levels`; names the choices otherwise. */
export function parseLevelMode(value: string, source = '--levels'): LevelMode {
  if ((LEVEL_MODES as readonly string[]).includes(value)) return value as LevelMode;
  throw new RepocodError('usage', `${source}: unknown level mode "${value}" (known: ${LEVEL_MODES.join(', ')})`);
}

/**
 * One use in a canonical solution that decided (or shared in deciding) its level under a mode: where
 * it is, the callee as written, and the definition it was resolved to. Under `deps` a use may be a
 * read rather than a call; `rule` names the clause of the mode that counted it.
 */
export interface LevelCall {
  /** 1-based line of the use in the target's file. */
  readonly line: number;
  /** The callee (or name) as written: `helpers.parse`, `self.validate`, `Parser(...).run`. */
  readonly callee: string;
  /** What it was resolved to: repository-relative file, `__qualname__`, and the line of its `def`/`class`. */
  readonly file: string;
  readonly qualname: string;
  readonly definitionLine: number;
  readonly rule: LevelRule;
  /** The level this use alone gives. */
  readonly level: ContextLevel;
}

export const LEVEL_RULES = [
  /** repocod-v1: `f(...)` with `f` from a relative import, a function of another file. */
  'relative-import',
  /** repocod-v1: `C.m(...)` or `C(...).m(...)` with `C` a relatively imported class. */
  'relative-class-method',
  /** repocod-v1: `g(...)` to a function of the target's own file. */
  'same-file-function',
  /** repocod-v1: `self.m(...)`/`cls.m(...)` to a method of the enclosing class's own body. */
  'own-class-method',
  /** repocod-v1: a call of a function the target defines inside itself. */
  'nested-def',
  /** repocod-v4 and deps: a use resolved through imports, the module, enclosing functions, the class's MRO. */
  'resolved',
  /** repocod-v4: a repository class called (instantiated). */
  'instantiated',
] as const;
export type LevelRule = (typeof LEVEL_RULES)[number];

/** A level and the uses behind it, under one mode. */
export interface LevelLabel {
  readonly level: ContextLevel;
  readonly calls: readonly LevelCall[];
}

/** A task's label under every mode. */
export type TaskLevels = Readonly<Record<LevelMode, LevelLabel>>;

/** The level a set of uses gives: any repository-level use wins, then any file-level one. */
export function levelOfCalls(calls: readonly Pick<LevelCall, 'level'>[]): ContextLevel {
  if (calls.some((call) => call.level === 'repo-level')) return 'repo-level';
  return calls.some((call) => call.level === 'file-level') ? 'file-level' : 'self-contained';
}

/** A stored list of LevelCalls (the catalog's `task_levels.calls`, a record's `levels`). */
export function decodeLevelCalls(value: unknown, where: string): LevelCall[] {
  return asArray(value, where).map((item, index) => {
    const at = `${where}[${index}]`;
    const object = asObject(item, at);
    return {
      line: numberField(object, 'line', at),
      callee: stringField(object, 'callee', at),
      file: stringField(object, 'file', at),
      qualname: stringField(object, 'qualname', at),
      definitionLine: numberField(object, 'definitionLine', at),
      rule: oneOfField(object, 'rule', LEVEL_RULES, at),
      level: oneOfField(object, 'level', CONTEXT_LEVELS, at),
    };
  });
}

/** `decodeLevelCalls` of stored JSON text. */
export function parseLevelCalls(text: string, where: string): LevelCall[] {
  return decodeLevelCalls(parseStoredJson(text, where), where);
}
