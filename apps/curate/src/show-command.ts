import { RepocodError, tailLines } from '@repocod/core';
import type { BodyHistoryRow, Catalog, SelectionSpec, StoredTask, StoredValidation } from '@repocod/pipeline';
import {
  bodyDateText,
  checksOf,
  DEFAULT_CATALOG_PATH,
  explainLevel,
  openCatalog,
  qualityFindings,
  readCurrentValidations,
  shortBodyCommit,
  storedBodyDate,
  taskHash,
} from '@repocod/pipeline';
import { releaseInstanceId } from '@repocod/runner';
import type { CommandIO } from './io.js';
import type { ParsedArgs } from './parse-args.js';
import { stringOption } from './parse-args.js';

export const SHOW_USAGE = `usage: repocod show <instance_id> [--db FILE]

Prints a task: its prompt, its level and the dependencies that gave it, its level under each context-level
mode with the calls that decided it (line, callee, what it resolved to, the rule), its FAIL_TO_PASS, the checks
of its patches, its validation (each check, the tests concerned, the end of the log of a failed one,
the flaky tests, the provenance and run ids) and the pre/gold diffs of code and tests. A repository built at
another commit with --at keeps its tasks beside the others, their ids ending in @COMMIT12: an id without it
shows the task of every commit the catalog holds.`;

export async function showCommand(args: ParsedArgs, io: CommandIO): Promise<number> {
  const [instanceId, extra] = args.positionals;
  if (instanceId === undefined || extra !== undefined) throw new RepocodError('usage', SHOW_USAGE);
  const catalog = await openCatalog(stringOption(args, 'db') ?? DEFAULT_CATALOG_PATH);
  try {
    const tasks = await tasksNamed(catalog, instanceId);
    const shown: string[] = [];
    for (const task of tasks) shown.push((await taskLines(catalog, task)).join('\n'));
    io.out(`${shown.join('\n\n')}\n`);
    return 0;
  } finally {
    await catalog.close();
  }
}

/**
 * The task of that instance id. An id as a release names it (no `@COMMIT12`, catalog-name.ts) is the task of every
 * commit the catalog built of its repository: the manifest's and each era's, oldest base commit first.
 */
async function tasksNamed(catalog: Catalog, instanceId: string): Promise<StoredTask[]> {
  const summaries = await catalog.taskSummaries();
  const ids =
    releaseInstanceId(instanceId) === instanceId
      ? summaries
          .filter((summary) => releaseInstanceId(summary.instanceId) === instanceId)
          .map((summary) => summary.instanceId)
      : [instanceId];
  const tasks: StoredTask[] = [];
  for (const id of ids) {
    const task = await catalog.task(id);
    if (task !== null) tasks.push(task);
  }
  const committed = (task: StoredTask): number => Date.parse(task.baseCommitTimestamp);
  if (tasks.length > 0) return tasks.sort((a, b) => committed(a) - committed(b));
  const near = summaries
    .map((candidate) => candidate.instanceId)
    .filter((id) => id.includes(instanceId.split('.').at(-1) ?? instanceId))
    .slice(0, 5);
  throw new RepocodError(
    'usage',
    `no task ${instanceId} in the catalog${
      near.length > 0
        ? `; did you mean ${near.join(', ')}?`
        : '; `repocod sql "select instance_id from tasks"` lists them'
    }`,
  );
}

async function taskLines(catalog: Catalog, task: StoredTask): Promise<string[]> {
  const validation =
    (await readCurrentValidations(catalog, [{ instanceId: task.instanceId, hash: taskHash(task) }])).get(
      task.instanceId,
    ) ?? null;
  const { checks } = task;
  // Shown once the body was dated (--changed-since): when it was last written or changed, and by which commit.
  const body = await storedBodyDate(catalog, task.repository, task.baseCommit, task.functionId);
  return [
    `${task.instanceId}`,
    `  repository   ${task.repo} at ${task.baseCommit.slice(0, 12)} (${task.baseCommitTimestamp})`,
    `  function     ${task.file}::${task.qualname}`,
    ...bodyLines(body),
    `  lengths      prompt ${task.promptLines} lines / ${task.promptTokens} tokens, solution ${task.solutionLines} ` +
      `lines / ${task.solutionTokens} tokens, complexity ${task.complexity}`,
    ...levelLines(task),
    ...(await qualityLines(catalog, task, validation)),
    `  checks       ${task.checksPassed ? 'all passed' : `FAILED: ${checks.messages.join('; ')}`}`,
    `  FAIL_TO_PASS (${task.failToPass.length})`,
    ...task.failToPass.map((test) => `    ${test}`),
    ...validationLines(validation),
    '',
    ...section('prompt', task.prompt),
    ...section('pre_patches.code', task.preCode),
    ...section('pre_patches.test', task.preTest),
    ...section('gold_patches.code', task.goldCode),
  ];
}

/**
 * The figures the selection's quality rules read (quality-rules.ts), and the rules of the catalog's latest
 * selection the task breaks: why a task that passed its checks is not picked.
 */
async function qualityLines(
  catalog: Catalog,
  task: StoredTask,
  validation: StoredValidation | null,
): Promise<string[]> {
  const suiteSize = await catalog.suiteSize(task.repository);
  const collectCheck = validation?.checks.find((check) => check.check === 'collects');
  const preStateCollects = collectCheck === undefined ? null : collectCheck.bodyNeededAtCollection !== true;
  const sharePercent = suiteSize === null || suiteSize === 0 ? null : (task.failToPass.length / suiteSize) * 100;
  const share = sharePercent === null ? '' : ` (${sharePercent.toFixed(1)}%)`;
  const suite = suiteSize === null ? 'suite size unknown' : `of the suite's ${suiteSize} tests${share}`;
  const pre =
    preStateCollects === null
      ? 'pre state not validated yet'
      : preStateCollects
        ? 'pre state collects'
        : 'pre state does not collect without the body';
  const lines = [
    `  quality      ${task.solutionLines} solution line(s); FAIL_TO_PASS ${task.failToPass.length} ${suite}; ${pre}`,
  ];
  const selection = await catalog.selection(undefined);
  const rules = selection === null ? undefined : (JSON.parse(selection.spec) as SelectionSpec).quality;
  if (rules !== undefined && selection !== null) {
    const findings = qualityFindings(rules, {
      solutionLines: task.solutionLines,
      failToPass: task.failToPass.length,
      suiteSize,
      preStateCollects,
    });
    lines.push(
      findings.length === 0
        ? `               meets the quality rules of selection ${selection.selectionId}`
        : `               removed by selection ${selection.selectionId}'s rules: ${findings
            .map((finding) => `${finding.rule} (${finding.detail})`)
            .join('; ')}`,
    );
  }
  return lines;
}

function section(title: string, text: string): string[] {
  return [`--- ${title} ---`, text.trimEnd(), ''];
}

/** The task's level and why, then its label under every mode (see explainLevel). */
function levelLines(task: StoredTask): string[] {
  const { summary, reasons, modes } = explainLevel(task);
  return [
    `  level        ${task.level}${summary}`,
    ...reasons.map((reason) => `    ${reason}`),
    '  levels       under each mode (repocod select --levels MODE re-labels; docs/tasks.md)',
    ...modes.flatMap(({ line, uses }) => [`    ${line}`, ...uses.map((use) => `      ${use}`)]),
  ];
}

/** How many lines of a failed check's pytest output to show: enough for the failures' summary. */
const LOG_LINES = 40;

function validationLines(validation: StoredValidation | null): string[] {
  if (validation === null) return ['  validation   not yet validated as the task is now (repocod validate)'];
  const lines = [
    `  validation   ${validation.status} (${validation.validatedAt.toISOString()}, gold check by ` +
      `${
        validation.goldFrom === 'baseline'
          ? `mining's ${validation.repeat} baseline run(s)`
          : `${validation.repeat} run(s) with the gold patches`
      })`,
    ...checksOf(validation).flatMap((check) => [
      `    ${check.check.padEnd(19)}${check.status.padEnd(12)}${check.detail}`,
      ...check.tests.slice(0, 10).map((test) => `      ${test}`),
      ...(check.tests.length > 10 ? [`      … and ${check.tests.length - 10} more`] : []),
    ]),
  ];
  if (validation.flakyTests.length > 0)
    lines.push(`    flaky, removed from FAIL_TO_PASS: ${validation.flakyTests.join(', ')}`);
  if (validation.droppedTests.length > 0)
    lines.push(`    pass without the body, removed from FAIL_TO_PASS: ${validation.droppedTests.join(', ')}`);
  else if (validation.passingWithoutBody.length > 0) {
    const seen = validation.withoutBodyComplete === false ? ' (seen before the run stopped at the first failure)' : '';
    lines.push(`    pass without the body, kept in FAIL_TO_PASS${seen}: ${validation.passingWithoutBody.join(', ')}`);
  }
  lines.push(
    `    provenance   ${validation.toolVersion}; python ${validation.pythonVersion}; packages ` +
      `${validation.packagesHash.slice(0, 16)}; environment ${validation.environmentKey.slice(0, 12)}`,
  );
  lines.push(`    run ids      ${validation.runIds.join(' ')}`);
  for (const check of checksOf(validation).filter((item) => item.log !== null)) {
    const tail = tailLines(check.log ?? '', LOG_LINES, 'trimmed');
    lines.push(
      '',
      `--- log of ${check.check} (last ${tail.length} lines; repocod sql "select log from runs ` +
        `where run_id = '${check.runIds[0] ?? ''}'" for all of it) ---`,
      ...tail,
    );
  }
  return lines;
}

/** When the body was last written or changed and by which commit, once dated (--changed-since); nothing before. */
function bodyLines(body: BodyHistoryRow | null): string[] {
  if (body === null || body.bodyCommit === null) return [];
  // Blame could give only an upper bound (a clone that lacks blobs it reads: runner's blame-bodies.ts).
  if (body.bodyChangedAt === null)
    return [`  body         undated: ${shortBodyCommit(body.bodyCommit)} or older; never counted as changed`];
  // A release diff's text (release-diff:1.6.1..1.9.1) is printed whole: it names the releases, not a commit.
  return [`  body         changed ${bodyDateText(body.bodyChangedAt)} in ${shortBodyCommit(body.bodyCommit)}`];
}
