import { RepocodError } from '@repocod/core';

/*
 * Task-quality rules of a selection spec (`"quality"`): what a task must be to be picked, beyond its checks. Each
 * rule's default is REPOCOD's own choice, so a spec that does not name one selects as REPOCOD did:
 *
 * - `minSolutionLines` (REPOCOD: 1, any body): the fewest lines of the canonical solution. A one-line body
 *   (`return self._parameter_source.get(name)`) is a task of naming, not of writing code.
 * - `maxFailToPassShare` (REPOCOD: 1, any share): the largest share of the repository's suite (its baseline
 *   tests) a task's FAIL_TO_PASS may hold. A task whose removed tests are most of the suite is graded by the
 *   suite, not by tests of the function, and its test patch deletes most of it.
 * - `preStateMustCollect` (REPOCOD: false): whether a task whose pre state does not collect (its tests, or the
 *   package itself, need the body at import time: attrs' `attr._make.attrs`) is refused. REPOCOD accepts it; the
 *   model then works in a repository that does not import. Known once the task is validated (the collect check).
 */

export interface QualityRules {
  readonly minSolutionLines?: number;
  readonly maxFailToPassShare?: number;
  readonly preStateMustCollect?: boolean;
}

/** REPOCOD's choices: what a rule left out of the spec is. */
export const REPOCOD_QUALITY: Required<QualityRules> = {
  minSolutionLines: 1,
  maxFailToPassShare: 1,
  preStateMustCollect: false,
};

/** A rule by the name a spec writes it under `"quality"`. */
export type QualityRuleName = keyof QualityRules;

const RULE_NAMES: readonly QualityRuleName[] = ['minSolutionLines', 'maxFailToPassShare', 'preStateMustCollect'];

/** What the rules read of a task. */
export interface QualityFacts {
  readonly solutionLines: number;
  readonly failToPass: number;
  /** The repository's suite (baseline tests); null when mining's baseline is not in the catalog. */
  readonly suiteSize: number | null;
  /** From the task's current validation's collect check; null before it is validated. */
  readonly preStateCollects: boolean | null;
}

/** A rule a task breaks, with the figures that break it. */
export interface QualityFinding {
  readonly rule: QualityRuleName;
  readonly detail: string;
}

/** The rules a task breaks (none: it may be picked). */
export function qualityFindings(rules: QualityRules, facts: QualityFacts): QualityFinding[] {
  const { minSolutionLines, maxFailToPassShare, preStateMustCollect } = { ...REPOCOD_QUALITY, ...rules };
  const findings: QualityFinding[] = [];
  if (facts.solutionLines < minSolutionLines) {
    findings.push({
      rule: 'minSolutionLines',
      detail: `${facts.solutionLines} solution line(s), fewer than ${minSolutionLines}`,
    });
  }
  const share = facts.suiteSize === null || facts.suiteSize === 0 ? null : facts.failToPass / facts.suiteSize;
  if (share !== null && share > maxFailToPassShare) {
    findings.push({
      rule: 'maxFailToPassShare',
      detail: [
        `FAIL_TO_PASS ${facts.failToPass} of the suite's ${facts.suiteSize} tests (${percent(share)}),`,
        `more than ${percent(maxFailToPassShare)}`,
      ].join(' '),
    });
  }
  if (preStateMustCollect && facts.preStateCollects === false) {
    findings.push({ rule: 'preStateMustCollect', detail: 'the pre state does not collect without the body' });
  }
  return findings;
}

/** Every rule with its value in force (the spec's, else REPOCOD's), for a card or `repocod show`. */
export function qualityRulesInForce(rules: QualityRules | undefined): string {
  const all = { ...REPOCOD_QUALITY, ...(rules ?? {}) };
  return RULE_NAMES.map((name) => `${name} ${all[name]}${rules?.[name] === undefined ? " (REPOCOD's)" : ''}`).join(
    ', ',
  );
}

/** Reads a spec's `"quality"`: an object of known rules with values of their kind, each refused by name. */
export function parseQualityRules(value: unknown, source: string): QualityRules {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RepocodError('config-invalid', `${source}: "quality" must be an object of rules`);
  }
  const rules: { -readonly [K in keyof QualityRules]: QualityRules[K] } = {};
  for (const [name, given] of Object.entries(value as Record<string, unknown>)) {
    const key = RULE_NAMES.find((rule) => rule === name);
    if (key === undefined) {
      throw new RepocodError(
        'config-invalid',
        `${source}: quality: unknown rule "${name}" (known: ${RULE_NAMES.join(', ')})`,
      );
    }
    if (key === 'minSolutionLines') {
      if (typeof given !== 'number' || !Number.isInteger(given) || given < 1) {
        throw new RepocodError(
          'config-invalid',
          `${source}: quality.${name} must be a whole number >= 1 (got ${JSON.stringify(given)})`,
        );
      }
      rules.minSolutionLines = given;
    } else if (key === 'maxFailToPassShare') {
      if (typeof given !== 'number' || !(given > 0 && given <= 1)) {
        throw new RepocodError(
          'config-invalid',
          `${source}: quality.${name} must be a share of the suite, above 0 and at most 1 ` +
            `(got ${JSON.stringify(given)})`,
        );
      }
      rules.maxFailToPassShare = given;
    } else {
      if (typeof given !== 'boolean') {
        throw new RepocodError('config-invalid', `${source}: quality.${name} must be true or false`);
      }
      rules.preStateMustCollect = given;
    }
  }
  return rules;
}

function percent(share: number): string {
  return `${Math.round(share * 1000) / 10}%`;
}
