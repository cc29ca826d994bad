import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { RepocodError } from '@repocod/core';
import type { ReferenceName, ReportSubject } from '@repocod/pipeline';
import {
  auditHtml,
  auditMarkdown,
  candidateModeReport,
  DEFAULT_CATALOG_PATH,
  DEFAULT_RECORD_FOLDER,
  fidelityHtml,
  fidelitySections,
  levelModeReport,
  listRepositories,
  openCatalog,
  referenceAuditReport,
} from '@repocod/pipeline';
import type { CommandIO } from './io.js';
import type { ParsedArgs } from './parse-args.js';
import { listOption, stringOption } from './parse-args.js';
import { PROJECT_ROOT } from './project-root.js';
import { REPORT_DIFF_HELP, REPORT_DIFF_SYNOPSIS, reportDiffCommand } from './report-diff-command.js';
import { repositoryOptions } from './repository-options.js';

export const REPORT_USAGE =
  `usage: repocod report [--selection ID | --release DIR [--version V]] ` +
  `[--against full|full-v1|lite] [--markdown FILE] [--html FILE] [--db FILE]
       repocod report --candidate-modes [--repo NAME]... [--records DIR] [--markdown FILE] [--db FILE]
       repocod report --level-modes [--repo NAME]... [--records DIR] [--markdown FILE] [--json-file FILE] [--db FILE]
       repocod report --reference NAME [--flaky NAME] [--manifest FILE] [--markdown FILE] [--html FILE]
                      [--json-file FILE] [--db FILE]
       ${REPORT_DIFF_SYNOPSIS}

How close a rebuild is to REPOCOD: our tasks beside REPOCOD's published tables
(datasets/repocod/reference), per repository × context level, cell by cell with the difference: the
task count, the mean prompt tokens (#NL), mean solution tokens (#GT) and mean cyclomatic complexity;
then a fidelity line per repository (task count ratio, differences of the three means) and, beside
the full benchmark, the tasks over its Figure 4's solution-length and complexity bins. Without
--selection or --release: the catalog's tasks that pass their checks against the full benchmark, and
its latest selection against REPOCOD-Lite. --against picks the table: full (the ACL version's levels,
which our classifier follows), full-v1 (the first version's levels, those REPOCOD-Lite was selected
with) or lite; the default is lite for a selection or a release. Prints Markdown; --markdown FILE and
--html FILE (one self-contained page with charts) write it too.

--candidate-modes measures the readings of REPOCOD's target rule (repocod mine --candidates) on the
catalog's repositories (or those given with --repo): per repository and mode the tasks, beside
REPOCOD's total, and per mode how far it is from REPOCOD's totals. Which candidates have relevant
tests comes from the catalog and the committed records (--records DIR, default
${DEFAULT_RECORD_FOLDER}; theirs win); where mining stopped short (Lite-first) a cell gives what is
mined so far and an estimate.

--level-modes measures the context-level modes (repocod tasks --levels): per repository, the functions
mining found relevant tests for (by the catalog or the committed records, --records DIR), labelled
from the checkout under each mode, beside REPOCOD's first labelling (full-v1, REPOCOD-Lite's) and its
corrected one (full-v4), with the total-variation distance between the mixes; per mode the mean
distance over the repositories where every candidate was mined (a Lite-first pool is listed, not
averaged). Nothing runs: labels need the source only. --json-file FILE writes the rows and the means.

--reference NAME audits a reference rebuilt from source (repocod reference; docs/reference.md): per row,
whether it resolved (why not), our task of its function (or why there is none), FAIL_TO_PASS ours against
the reference's where it gives one, its text against ours, its gold patch and test removals against ours
(byte for byte, where it gives them), #NL / #GT / cyclomatic complexity ours and measured the same way on
its full_function, our level under each level mode, our latest verdict, the latest evaluate --gold, and
whether --flaky NAME (another reference, such as REPOCOD's flaky_tests.json) lists it; then a headline
("N of M resolved, A with identical FAIL_TO_PASS, B differ, V valid here, C not valid here (why)").
--html FILE writes it as one self-contained page, --json-file FILE every entry.

${REPORT_DIFF_HELP}`;

const AGAINST: Readonly<Record<string, ReferenceName>> = { full: 'full-v4', 'full-v1': 'full-v1', lite: 'lite' };

export async function reportCommand(args: ParsedArgs, io: CommandIO): Promise<number> {
  if (args.flags.has('diff')) return reportDiffCommand(args, io);
  for (const option of ['cutoff', 'json']) {
    if (args.flags.has(option)) throw new RepocodError('usage', `--${option} goes with --diff\n\n${REPORT_USAGE}`);
  }
  if (args.positionals.length > 0) throw new RepocodError('usage', REPORT_USAGE);
  if (args.flags.get('candidate-modes') === true) return candidateModesCommand(args, io);
  if (args.flags.get('level-modes') === true) return levelModesCommand(args, io);
  if (args.flags.has('reference')) return referenceAuditCommand(args, io);
  if (args.flags.has('flaky')) throw new RepocodError('usage', `--flaky goes with --reference\n\n${REPORT_USAGE}`);
  for (const option of ['repo', 'records', 'json-file']) {
    if (args.flags.has(option))
      throw new RepocodError('usage', `--${option} goes with --candidate-modes or --level-modes\n\n${REPORT_USAGE}`);
  }
  const selection = stringOption(args, 'selection');
  const release = stringOption(args, 'release');
  const version = stringOption(args, 'version');
  if (selection !== undefined && release !== undefined)
    throw new RepocodError('usage', `--selection and --release name two subjects: choose one\n\n${REPORT_USAGE}`);
  if (version !== undefined && release === undefined)
    throw new RepocodError('usage', `--version is a release's version: give --release DIR with it\n\n${REPORT_USAGE}`);
  const againstOption = stringOption(args, 'against');
  const against = againstOption === undefined ? undefined : AGAINST[againstOption];
  if (againstOption !== undefined && against === undefined)
    throw new RepocodError('usage', `--against ${againstOption}: one of full, full-v1, lite`);
  const subject: ReportSubject =
    release !== undefined
      ? { kind: 'release', folder: resolve(release), version }
      : selection !== undefined
        ? { kind: 'selection', selectionId: selection }
        : { kind: 'catalog' };
  const catalog = await openCatalog(stringOption(args, 'db') ?? DEFAULT_CATALOG_PATH);
  try {
    const sections = await fidelitySections(catalog, subject, { projectRoot: PROJECT_ROOT, against });
    const markdown = `# Fidelity to REPOCOD\n\n${sections.map((section) => section.markdown).join('\n')}`;
    io.out(markdown);
    const markdownFile = stringOption(args, 'markdown');
    if (markdownFile !== undefined) write(markdownFile, markdown, io);
    const htmlFile = stringOption(args, 'html');
    if (htmlFile !== undefined) write(htmlFile, fidelityHtml('Fidelity to REPOCOD', sections), io);
    return 0;
  } finally {
    await catalog.close();
  }
}

async function candidateModesCommand(args: ParsedArgs, io: CommandIO): Promise<number> {
  for (const option of ['selection', 'release', 'version', 'against', 'html']) {
    if (args.flags.has(option))
      throw new RepocodError('usage', `--${option} does not go with --candidate-modes\n\n${REPORT_USAGE}`);
  }
  const repositories = listOption(args, 'repo');
  const catalog = await openCatalog(stringOption(args, 'db') ?? DEFAULT_CATALOG_PATH);
  try {
    const report = await candidateModeReport(catalog, {
      repositories: repositories.length === 0 ? undefined : repositories,
      recordsFolder: resolve(PROJECT_ROOT, stringOption(args, 'records') ?? DEFAULT_RECORD_FOLDER),
    });
    const markdown = `# Candidate modes against REPOCOD's task counts\n\n${report.markdown}`;
    io.out(markdown);
    const markdownFile = stringOption(args, 'markdown');
    if (markdownFile !== undefined) write(markdownFile, markdown, io);
    return 0;
  } finally {
    await catalog.close();
  }
}

async function levelModesCommand(args: ParsedArgs, io: CommandIO): Promise<number> {
  for (const option of ['selection', 'release', 'version', 'against', 'html', 'candidate-modes']) {
    if (args.flags.has(option))
      throw new RepocodError('usage', `--${option} does not go with --level-modes\n\n${REPORT_USAGE}`);
  }
  const repositories = listOption(args, 'repo');
  const catalog = await openCatalog(stringOption(args, 'db') ?? DEFAULT_CATALOG_PATH);
  try {
    const report = await levelModeReport(catalog, {
      repositories: repositories.length === 0 ? undefined : repositories,
      recordsFolder: resolve(PROJECT_ROOT, stringOption(args, 'records') ?? DEFAULT_RECORD_FOLDER),
    });
    const markdown = `# Context-level modes against REPOCOD's labellings\n\n${report.markdown}`;
    io.out(markdown);
    const markdownFile = stringOption(args, 'markdown');
    if (markdownFile !== undefined) write(markdownFile, markdown, io);
    const jsonFile = stringOption(args, 'json-file');
    if (jsonFile !== undefined)
      write(jsonFile, `${JSON.stringify({ rows: report.rows, means: report.means }, null, 2)}\n`, io);
    return 0;
  } finally {
    await catalog.close();
  }
}

async function referenceAuditCommand(args: ParsedArgs, io: CommandIO): Promise<number> {
  for (const option of ['selection', 'release', 'version', 'against', 'repo', 'records']) {
    if (args.flags.has(option))
      throw new RepocodError('usage', `--${option} does not go with --reference\n\n${REPORT_USAGE}`);
  }
  const reference = stringOption(args, 'reference') as string;
  const flaky = stringOption(args, 'flaky');
  const catalog = await openCatalog(stringOption(args, 'db') ?? DEFAULT_CATALOG_PATH);
  try {
    const audit = await referenceAuditReport(catalog, reference, {
      repositories: listRepositories(repositoryOptions(args)),
      projectRoot: PROJECT_ROOT,
      ...(flaky === undefined ? {} : { flaky }),
    });
    const markdown = auditMarkdown(audit);
    io.out(markdown);
    const markdownFile = stringOption(args, 'markdown');
    if (markdownFile !== undefined) write(markdownFile, markdown, io);
    const htmlFile = stringOption(args, 'html');
    if (htmlFile !== undefined) write(htmlFile, auditHtml(audit), io);
    const jsonFile = stringOption(args, 'json-file');
    if (jsonFile !== undefined) write(jsonFile, `${JSON.stringify(audit, null, 2)}\n`, io);
    return 0;
  } finally {
    await catalog.close();
  }
}

function write(file: string, content: string, io: CommandIO): void {
  const path = resolve(file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  io.err(`wrote ${path}\n`);
}
