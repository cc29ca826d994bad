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
const levels = (tasks) => LEVELS.map((level) => tasks.by_level[level]).join(', ');
const mined = (m) => m.mined.with_tests + m.mined.without_tests + m.mined.errors;
const rows = [
  [
    'environment (uv, dated): build s, packages',
    (m) => m.environment && `${seconds(m.environment.build_seconds)} s, ${m.environment.packages.length}`,
  ],
  [
    'baseline: runs (k), tests / passing / flaky / not passing',
    (m) =>
      m.baseline &&
      `${m.baseline.runs ?? 3}: \
${[m.baseline.tests, m.baseline.passing, m.baseline.flaky, m.baseline.not_passing].join(' / ')}`,
  ],
  [
    'candidates / mined / with relevant tests',
    (m) => m.mined && `${m.candidates} / ${mined(m)} / ${m.mined.with_tests}`,
  ],
  ['tasks (self-contained, file, repo)', (m) => m.tasks && `${m.tasks.total} (${levels(m.tasks)})`],
  ['tasks passing their patch checks', (m) => m.tasks && `${m.tasks.passing_checks}`],
  ['validated: passed / failed', (m) => m.validated && `${m.validated.passed} / ${m.validated.failed}`],
  [
    'wall s of the last run: mine, tasks, validate',
    (m) => m.stage_seconds && ['mine', 'tasks', 'validate'].map((stage) => seconds(m.stage_seconds[stage])).join(', '),
  ],
  ["REPOCOD's task count", (m) => `${REPOCOD_TASKS[m.repository]}`],
];

const done = metas.filter((meta) => meta.base_commit !== undefined || ORDER.indexOf(meta.repository) < 7);
// A repository built from another tree than REPOCOD's commit (a release's sdist) is marked, and footnoted below.
const heading = (meta) => (meta.stands_in_for ? `${meta.repository} †` : meta.repository);
console.log(`| | ${done.map(heading).join(' | ')} |`);
console.log(`|---|${done.map(() => '---').join('|')}|`);
for (const [label, cell] of rows) console.log(`| ${label} | ${done.map((meta) => cell(meta) || '–').join(' | ')} |`);
for (const meta of done.filter((m) => m.stands_in_for)) {
  console.log(
    `\n† ${meta.repository}: built from a stand-in tree (snapshot ${meta.base_commit.slice(0, 12)}), not REPOCOD's ` +
      `commit ${meta.stands_in_for.slice(0, 12)}, which cannot be cloned here; its figures are the stand-in's.`,
  );
}
