#!/usr/bin/env node
// Writes README's status table (between <!-- status:start --> and <!-- status:end -->) from the committed
// records in datasets/repocod/rebuilt/, so that README never states a figure of the rebuild the records do
// not: it once said seven of eleven repositories were rebuilt when all eleven were.
// Usage: node scripts/readme-status.mjs (test/src/readme-status.test.ts fails when README differs).
// The output is already in Biome's Markdown format (padded, aligned table cells), so `biome format` keeps it.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const STATUS_START = '<!-- status:start -->';
export const STATUS_END = '<!-- status:end -->';
export const STATUS_COMMAND = 'node scripts/readme-status.mjs';

const REBUILT = 'datasets/repocod/rebuilt';
const META_SUFFIX = '.meta.json';
/** REPOCOD's repositories, from its published figures (the paper's Table 6). */
const REFERENCE = 'datasets/repocod/reference/full-v4.json';
/** Where a prose line of the generated part wraps, as README's own prose does. */
const PROSE_COLUMNS = 110;

/** The table's count columns, right-aligned: a label and the field of a row (repositoryRows) it shows. */
const COUNTS = [
  ['candidates', 'candidates'],
  ['mined', 'mined'],
  ['mined with tests', 'minedWithTests'],
  ['tasks', 'tasks'],
  ['in the Lite', 'inLite'],
  ['valid', 'liteValid'],
];
const HEADER = ['repository', 'base commit', 'date', ...COUNTS.map(([label]) => label)];
const FIRST_COUNT = HEADER.length - COUNTS.length;

/** README has no status part to replace, or an unclosed one. */
export class StatusMarkersMissing extends Error {
  constructor(marker) {
    super(`README has no ${marker} line: put ${STATUS_START} and ${STATUS_END} where the status table goes`);
    this.name = 'StatusMarkersMissing';
    this.marker = marker;
  }
}

/** Two committed records state different values of one fact (the Lite's selection, its task count). */
export class RecordsDisagree extends Error {
  constructor(fact, values) {
    const stated = Object.entries(values).map(([file, value]) => `${file} ${value}`);
    super(`the committed records disagree on ${fact}: ${stated.join(', ')}`);
    this.name = 'RecordsDisagree';
    this.fact = fact;
    this.values = values;
  }
}

/** Everything the status is made of, read from the committed files (the only I/O of the generator). */
export function readStatusRecords(root) {
  const folder = join(root, REBUILT);
  const json = (file) => JSON.parse(readFileSync(join(folder, file), 'utf8'));
  const metas = readdirSync(folder)
    .filter((file) => file.endsWith(META_SUFFIX))
    .sort()
    .map(json);
  const reference = JSON.parse(readFileSync(join(root, REFERENCE), 'utf8'));
  return {
    metas,
    repocodRepositories: Object.keys(reference.repositories),
    lite: json('lite.json'),
    release: json('lite-release.json'),
    gold: json('lite-gold.report.json'),
    emptyBody: json('lite-empty-body.report.json'),
  };
}

/** The generated Markdown between the markers (without them), in Biome's format. */
export function statusMarkdown(records) {
  const { metas, lite, release } = records;
  agree('the Lite selection', { 'lite.json': lite.selection, 'lite-release.json': release.selection });
  const picks = Object.values(lite.levels).flatMap((level) => level.picks);
  agree('the Lite tasks', { 'lite.json tasks': lite.tasks, 'lite.json picks': picks.length });
  // Records not made in the Lite's catalog: their rebuild's own selection, not the Lite's.
  const wholeSuite = metas.filter((meta) => meta.selection !== lite.selection);
  return [
    prose(
      `${metas.length} of REPOCOD's ${records.repocodRepositories.length} repositories rebuilt: per repository, ` +
        `its record (\`${REBUILT}/NAME${META_SUFFIX}\`) and its share of the Lite (\`lite.json\`).`,
    ),
    repositoryTable(repositoryRows(records, picks), wholeSuite),
    ...metas.filter((meta) => meta.stands_in_for).map(standInNote),
    ...[...new Set(wholeSuite.map((meta) => meta.selection))].map(wholeSuiteNote),
    liteLine(records, picks),
  ].join('\n\n');
}

/** README with its status part replaced by `markdown`. */
export function withStatus(readme, markdown) {
  const start = readme.indexOf(STATUS_START);
  if (start < 0) throw new StatusMarkersMissing(STATUS_START);
  const end = readme.indexOf(STATUS_END, start);
  if (end < 0) throw new StatusMarkersMissing(STATUS_END);
  return `${readme.slice(0, start)}${STATUS_START}\n\n${markdown}\n\n${readme.slice(end)}`;
}

/**
 * A row per repository of REPOCOD's or of a record (one without a record says so), in name order. The Lite's
 * counts are its picks', so a repository of no pick counts 0.
 */
function repositoryRows(records, picks) {
  const metas = new Map(records.metas.map((meta) => [meta.repository, meta]));
  const names = [...new Set([...records.repocodRepositories, ...metas.keys()])].sort();
  return names.map((repository) => {
    const meta = metas.get(repository);
    const ofRepository = picks.filter((pick) => pick.repository === repository);
    return {
      repository,
      meta,
      standsInFor: meta?.stands_in_for ?? null,
      candidates: meta?.candidates,
      mined: meta && meta.mined.with_tests + meta.mined.without_tests + meta.mined.errors,
      minedWithTests: meta?.mined.with_tests,
      tasks: meta?.tasks.total,
      inLite: ofRepository.length,
      liteValid: ofRepository.filter((pick) => pick.valid === true).length,
    };
  });
}

/** The table: a row per repository (marked † for a stand-in, ‡ for a whole-suite record), then the totals. */
function repositoryTable(rows, wholeSuite) {
  const total = (field) => rows.reduce((sum, row) => sum + (row[field] ?? 0), 0);
  return table([
    ...rows.map((row) => [
      row.repository + (row.standsInFor ? ' †' : '') + (wholeSuite.includes(row.meta) ? ' ‡' : ''),
      row.meta ? `\`${row.meta.base_commit.slice(0, 12)}\`` : 'not rebuilt',
      row.meta ? row.meta.base_commit_timestamp.slice(0, 10) : '–',
      ...COUNTS.map(([, field]) => count(row[field])),
    ]),
    ['**total**', '', '', ...COUNTS.map(([, field]) => count(total(field)))],
  ]);
}

function standInNote(meta) {
  return prose(
    `† ${meta.repository}: built from a stand-in (the \`stand_in\` source distribution of ` +
      `datasets/repocod/manifest.yaml), not REPOCOD's commit \`${meta.stands_in_for.slice(0, 12)}\`; ` +
      "the row's commit, date and figures are the stand-in's.",
  );
}

function wholeSuiteNote(selection) {
  return prose(
    `‡ The record of a whole-suite rebuild (selection \`${selection}\`), not of the Lite's catalog, ` +
      "which holds only Lite-first mining for it: candidates, mined and tasks are that rebuild's.",
  );
}

/** The Lite: its selection, its valid picks, and the gold and empty-body evaluations' reports. */
function liteLine({ lite, release, gold, emptyBody }, picks) {
  const valid = picks.filter((pick) => pick.valid === true).length;
  return prose(
    `**Lite** \`${lite.selection}\` (release ${release.version}, levels \`${lite.spec.levels}\`): ` +
      `${count(valid)} of ${count(picks.length)} picks valid; ${count(lite.failed_validation.length)} tasks ` +
      'of its pool failed validation and were passed over. ' +
      `\`repocod evaluate --gold\` (\`${gold.run_id}\`): ${resolved(gold)}; ` +
      `the empty-body control (\`${emptyBody.run_id}\`): ${resolved(emptyBody)}.`,
  );
}

function agree(fact, values) {
  if (new Set(Object.values(values)).size > 1) throw new RecordsDisagree(fact, values);
}

function resolved(report) {
  return `${count(report.resolved_instances)} of ${count(report.total_instances)} resolved`;
}

/** A count as README's prose writes one (11,467); '–' where the record has none. */
function count(value) {
  return value === undefined ? '–' : String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A Markdown table as Biome formats one: every cell padded to its column's width (at least 3). */
function table(rows) {
  const all = [HEADER, ...rows];
  const width = (text) => [...text].length;
  const widths = HEADER.map((_, column) => Math.max(3, ...all.map((row) => width(row[column]))));
  const pad = (text, column) =>
    column >= FIRST_COUNT ? text.padStart(widths[column]) : text.padEnd(widths[column] + text.length - width(text));
  const line = (cells) => `| ${cells.map(pad).join(' | ')} |`;
  const rule = widths.map((size, column) => (column >= FIRST_COUNT ? `${'-'.repeat(size - 1)}:` : '-'.repeat(size)));
  return [line(HEADER), line(rule), ...rows.map(line)].join('\n');
}

/** A paragraph wrapped at PROSE_COLUMNS, between words. */
function prose(text) {
  const lines = [];
  for (const word of text.split(' ')) {
    const last = lines.length - 1;
    if (last >= 0 && [...`${lines[last]} ${word}`].length <= PROSE_COLUMNS) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines.join('\n');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const file = join(root, 'README.md');
  const before = readFileSync(file, 'utf8');
  const after = withStatus(before, statusMarkdown(readStatusRecords(root)));
  if (after !== before) writeFileSync(file, after);
  console.log(`README.md: status ${after === before ? 'unchanged' : 'written'} from ${REBUILT}`);
}
