import { join } from 'node:path';
import type { Catalog, StoredValidation } from '@repocod/catalog';
import { analysePythonFile } from '@repocod/metrics';
import { networkBound } from '@repocod/mining';
import { loadPythonParser } from '@repocod/python';
import type {
  AuditedTask,
  AuditedVerdict,
  AuditInput,
  BaselineVerdict,
  GoldEvaluation,
  MissingTestReason,
  ReferenceAudit,
  ReferenceRow,
  TextMeasures,
} from '@repocod/reference';
import { auditReference, missingTestReason } from '@repocod/reference';
import type { ManifestEntry } from '@repocod/runner';
import { readCurrentValidations, taskHash } from '@repocod/validate';
import { functionKey } from '../candidates/mining-outcomes.js';
import { GOLD_MODEL } from '../steps/evaluate.js';
import { DEFAULT_RECORD_FOLDER } from '../records/rebuild-record-files.js';
import { resolveReference } from '../reference/reference-resolution.js';

/**
 * `repocod report --reference NAME`: every row of the reference resolved, with the catalog's task of its
 * function (levels under each mode, lengths, complexity, FAIL_TO_PASS), that task's latest validation of
 * its current content, and whether another reference (`flaky`, REPOCOD's flaky_tests.json) names the same
 * function; audited by the reference package.
 */
export async function referenceAuditReport(
  catalog: Catalog,
  reference: string,
  options: {
    readonly repositories: readonly ManifestEntry[];
    readonly projectRoot: string;
    readonly flaky?: string;
  },
): Promise<ReferenceAudit> {
  const settings = {
    repositories: options.repositories,
    recordsFolder: join(options.projectRoot, DEFAULT_RECORD_FOLDER),
  };
  const resolution = await resolveReference(catalog, reference, settings);
  const flaky =
    options.flaky === undefined
      ? null
      : new Set(
          (await resolveReference(catalog, options.flaky, settings)).rows.flatMap((row) =>
            row.resolution.status === 'resolved' ? [`${row.repository}\n${functionKey(row.resolution.function)}`] : [],
          ),
        );
  const summaries = new Map(
    (await catalog.taskSummaries()).map((task) => [`${task.repository}\n${functionKey(task)}`, task.instanceId]),
  );
  const baselines = new BaselineVerdicts(catalog);
  const gold = await latestGoldEvaluations(catalog);
  const inputs: AuditInput[] = [];
  for (const { row, repository, resolution: result } of resolution.rows) {
    const key = result.status === 'resolved' ? `${repository}\n${functionKey(result.function)}` : null;
    const instanceId = key === null ? undefined : summaries.get(key);
    const stored = instanceId === undefined ? null : await catalog.task(instanceId);
    let task: AuditedTask | null = null;
    let verdict: AuditedVerdict | null = null;
    let lackingReasons: Record<string, MissingTestReason> | undefined;
    if (stored !== null) {
      task = {
        instanceId: stored.instanceId,
        failToPass: stored.failToPass,
        levels: Object.fromEntries(Object.entries(stored.levels).map(([mode, label]) => [mode, label?.level ?? ''])),
        promptTokens: stored.promptTokens,
        solutionTokens: stored.solutionTokens,
        complexity: stored.complexity,
        checksPassed: stored.checksPassed,
        goldCode: stored.goldCode,
        preTest: stored.preTest,
      };
      const current = await readCurrentValidations(catalog, [
        { instanceId: stored.instanceId, hash: taskHash(stored) },
      ]);
      const latest = current.get(stored.instanceId);
      verdict = latest === undefined ? null : verdictOf(latest);
      const ours = new Set(stored.failToPass);
      const lacking = (row.failToPass ?? []).filter((test) => !ours.has(test));
      if (lacking.length > 0) {
        const baseline = await baselines.of(stored.repository, stored.functionId);
        lackingReasons = Object.fromEntries(lacking.map((test) => [test, missingTestReason(baseline.get(test))]));
      }
    }
    inputs.push({
      row,
      repository,
      resolution: result,
      task,
      verdict,
      listedFlaky: flaky === null ? null : key !== null && flaky.has(key),
      ...(lackingReasons === undefined ? {} : { lackingReasons }),
      gold: task === null ? null : (gold.get(task.instanceId) ?? null),
      theirs: task === null ? null : await measuresOfRow(row),
    });
  }
  return auditReference(reference, inputs);
}

/**
 * A REPOCOD-form row's `full_function` measured as our extraction measures a function (its prompt's and
 * solution's cl100k tokens, radon's cyclomatic complexity): REPOCOD's #NL, #GT and complexity of the
 * task, to set beside ours. Its text is a tree-sitter node's, whose first line has no indentation and
 * whose body keeps the file's: Python parses it as it is. Null for a row without one, or one that does
 * not parse to a single function.
 */
async function measuresOfRow(row: ReferenceRow): Promise<TextMeasures | null> {
  if (row.fullFunction === null) return null;
  const analysis = analysePythonFile(
    await loadPythonParser(),
    new TextEncoder().encode(`${row.fullFunction}\n`),
    'full_function.py',
  );
  const outer = analysis.functions.filter((fn) => !fn.nested && fn.className === null);
  const [fn] = outer;
  if (outer.length !== 1 || fn === undefined) return null;
  return {
    promptTokens: fn.metrics.promptTokens,
    solutionTokens: fn.metrics.solutionTokens,
    complexity: fn.metrics.cyclomatic,
  };
}

/**
 * Each task's latest `repocod evaluate --gold` outcome, over every evaluation run of the catalog: the
 * whole FAIL_TO_PASS run at once within the limit, which validation does not do (its check 2 stops at
 * the first failure, and mining's sharded baseline answers check 3).
 */
async function latestGoldEvaluations(catalog: Catalog): Promise<Map<string, GoldEvaluation>> {
  const latest = new Map<string, { readonly at: number; readonly gold: GoldEvaluation }>();
  for (const run of await catalog.evaluationRuns()) {
    for (const evaluation of await catalog.evaluations(run.runId)) {
      if (evaluation.model !== GOLD_MODEL) continue;
      const at = evaluation.evaluatedAt.getTime();
      const known = latest.get(evaluation.instanceId);
      if (known !== undefined && known.at >= at) continue;
      const gold = { outcome: evaluation.outcome, detail: evaluation.detail, seconds: evaluation.seconds };
      latest.set(evaluation.instanceId, { at, gold });
    }
  }
  return new Map([...latest].map(([instanceId, { gold }]) => [instanceId, gold]));
}

function verdictOf(validation: StoredValidation): AuditedVerdict {
  if (validation.status === 'passed') return { status: 'passed', reason: null };
  const check = validation.checks.find((candidate) => candidate.status !== 'passed');
  return { status: validation.status, reason: check === undefined ? null : `${check.check} (${check.detail})` };
}

/**
 * Our baseline of a task's repository under the mining key its relevant tests were found with, per test:
 * what tells why a test of the reference's FAIL_TO_PASS is not in ours. Read once per repository and key.
 */
class BaselineVerdicts {
  private readonly byKey = new Map<string, Map<string, BaselineVerdict>>();
  private readonly miningKeys = new Map<string, Map<string, string>>();

  constructor(private readonly catalog: Catalog) {}

  async of(repository: string, functionId: string): Promise<Map<string, BaselineVerdict>> {
    let keys = this.miningKeys.get(repository);
    if (keys === undefined) {
      keys = new Map((await this.catalog.relevantTests(repository)).map((row) => [row.functionId, row.miningKey]));
      this.miningKeys.set(repository, keys);
    }
    const miningKey = keys.get(functionId);
    if (miningKey === undefined) return new Map();
    const key = `${repository}\n${miningKey}`;
    let verdicts = this.byKey.get(key);
    if (verdicts === undefined) {
      const rows = (await this.catalog.miningBaseline(repository, miningKey)) ?? [];
      const offline = new Set(networkBound(rows).map((test) => test.nodeId));
      verdicts = new Map(
        rows.map((test) => [test.nodeId, { status: test.status, networkBound: offline.has(test.nodeId) }]),
      );
      this.byKey.set(key, verdicts);
    }
    return verdicts;
  }
}
