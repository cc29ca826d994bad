#!/usr/bin/env node
// Prints the "where it stands" table of docs/rebuild.md from the committed records
// (datasets/repocod/rebuilt/*.meta.json),
// so that the figures there are the records', never typed by hand. Usage: node scripts/rebuilt-table.mjs
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const REBUILT = join(ROOT, 'datasets/repocod/rebuilt');
// REPOCOD's task count per repository, from its published figures (the paper's Table 6).
const REFERENCE = JSON.parse(readFileSync(join(ROOT, 'datasets/repocod/reference/full-v4.json'), 'utf8'));
const REPOCOD_TASKS = Object.fromEntries(
  Object.entries(REFERENCE.repositories).map(([repository, row]) => [repository, row.all.tasks]),
);
const ORDER = [
  ...['more-itertools', 'flask', 'pylint', 'sphinx', 'seaborn', 'sympy', 'xarray'],
  ...['astropy', 'datasets', 'plotly.py', 'scikit-learn'],
];

const metas = ORDER.map((repository) => {
  const file = join(REBUILT, `${repository}.meta.json`);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : { repository };
});

const seconds = (value) => (value === undefined || value === null ? '–' : `${Math.round(value)}`);
const LEVELS = ['self-contained', 'file-level', 'repo-level'];
// The levels under the record's level mode (records from before the modes: deps, the only labelling then).
const levels = (tasks) =>
  `${LEVELS.map((level) => tasks.by_level[level]).join(', ')}${tasks.level_mode ? `; ${tasks.level_mode}` : ''}`;
const envCell = (env) => `${seconds(env.build_seconds)} s, ${env.packages?.length ?? '–'}`;
const mined = (m) => m.mined.with_tests + m.mined.without_tests + m.mined.errors;
const columns = [
  ['env (uv, dated): build s, packages', (m) => m.environment && envCell(m.environment)],
  [
    'baseline k: tests / passing / flaky / not',
    (m) =>
      m.baseline &&
      `${m.baseline.runs ?? 3}: ` +
        `${[m.baseline.tests, m.baseline.passing, m.baseline.flaky, m.baseline.not_passing].join(' / ')}`,
  ],
  // Records made before the field existed have no list: '–', not 0.
  ['not passing for want of a network', (m) => m.baseline?.network_bound && `${m.baseline.network_bound.length}`],
  ['candidates / mined / with tests', (m) => m.mined && `${m.candidates} / ${mined(m)} / ${m.mined.with_tests}`],
  ['tasks (self-contained, file, repo; level mode)', (m) => m.tasks && `${m.tasks.total} (${levels(m.tasks)})`],
  ['pass checks', (m) => m.tasks && `${m.tasks.passing_checks}`],
  ['validated: passed / failed', (m) => m.validated && `${m.validated.passed} / ${m.validated.failed}`],
  [
    'wall s: mine, tasks, validate',
    (m) => m.stage_seconds && ['mine', 'tasks', 'validate'].map((stage) => seconds(m.stage_seconds[stage])).join(', '),
  ],
  ['runner: jobs, machine h', (m) => m.runner && `${m.runner.jobs}, ${(m.runner.seconds / 3600).toFixed(1)}`],
  ["REPOCOD's tasks", (m) => `${REPOCOD_TASKS[m.repository]}`],
];

const done = metas.filter((meta) => meta.base_commit !== undefined);
// A repository built from another tree than REPOCOD's commit (a release's sdist) is marked, and footnoted below.
const name = (meta) => (meta.stands_in_for ? `${meta.repository} †` : meta.repository);
// A row per repository: eleven of them read down a page, where eleven columns would not fit one.
console.log(`| repository | ${columns.map(([label]) => label).join(' | ')} |`);
console.log(`|---|${columns.map(() => '---').join('|')}|`);
for (const meta of done) console.log(`| ${name(meta)} | ${columns.map(([, cell]) => cell(meta) || '–').join(' | ')} |`);
const withRunner = done.filter((meta) => meta.runner);
if (withRunner.length > 0) {
  const hours =
    withRunner.reduce((sum, meta) => sum + meta.runner.seconds + (meta.environment?.build_seconds ?? 0), 0) / 3600;
  console.log(
    `\nMachine time of the runner's jobs and the environments' builds over ${withRunner.length} repositories: ` +
      `${hours.toFixed(1)} h (summed over workers and sessions; the catalog's runs).`,
  );
}
for (const meta of done.filter((m) => m.stands_in_for)) {
  console.log(
    `\n† ${meta.repository}: built from a stand-in tree (snapshot ${meta.base_commit.slice(0, 12)}), not REPOCOD's ` +
      `commit ${meta.stands_in_for.slice(0, 12)}, which cannot be cloned here; its figures are the stand-in's.`,
  );
}
