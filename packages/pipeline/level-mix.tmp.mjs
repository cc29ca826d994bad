// Scratch: level mix of each mode over the committed records' tasks, against REPOCOD's v1/v4 tables.
import { readFileSync } from 'node:fs';
import { listPythonFiles, loadPythonParser, parsePythonText } from '@repocod/python';
import { buildRepositoryIndex, classifyLevels } from '@repocod/tasks';
const repos = process.argv.slice(2);
const ref = (v) => JSON.parse(readFileSync(`datasets/repocod/reference/full-${v}.json`, 'utf8')).repositories;
const v1 = ref('v1'), v4 = ref('v4');
const LEVELS = ['self-contained', 'file-level', 'repo-level'];
const parser = await loadPythonParser();
const tv = (a, b) => { const na = LEVELS.reduce((s, l) => s + a[l], 0), nb = LEVELS.reduce((s, l) => s + b[l], 0); return 50 * LEVELS.reduce((s, l) => s + Math.abs(a[l] / na - b[l] / nb), 0); };
const sums = {};
const detail = [];
for (const repo of repos) {
  const root = `.repocod/repos/${repo}`;
  const records = readFileSync(`datasets/repocod/rebuilt/${repo}.jsonl`, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const files = listPythonFiles(root);
  const texts = new Map(files.map((f) => [f, readFileSync(`${root}/${f}`, 'utf8')]));
  const index = buildRepositoryIndex(parser, texts);
  const byFile = new Map();
  const counts = { 'repocod-v1': {}, 'repocod-v4': {}, deps: {}, record: {} };
  for (const m of Object.values(counts)) for (const l of LEVELS) m[l] = 0;
  for (const r of records) {
    if (!byFile.has(r.file)) { const p = parsePythonText(parser, texts.get(r.file), r.file); p.tree.delete(); byFile.set(r.file, p.functions); }
    const fn = byFile.get(r.file).find((f) => f.qualname === r.qualname);
    if (!fn) { console.error('missing', repo, r.file, r.qualname); continue; }
    const levels = classifyLevels(index, fn);
    for (const mode of ['repocod-v1', 'repocod-v4', 'deps']) counts[mode][levels[mode].level]++;
    counts.record[r.level]++;
    detail.push({ repo, q: r.qualname, v1: levels['repocod-v1'].level, v4: levels['repocod-v4'].level, deps: levels.deps.level, calls: levels['repocod-v1'].calls.map((c) => `${c.rule}:${c.callee}`) });
  }
  const refs = { v1: Object.fromEntries(LEVELS.map((l) => [l, v1[repo][l].tasks])), v4: Object.fromEntries(LEVELS.map((l) => [l, v4[repo][l].tasks])) };
  const row = (name, m) => `${name.padEnd(11)} ${LEVELS.map((l) => String(m[l]).padStart(4)).join(' ')}  tv-v1 ${tv(m, refs.v1).toFixed(1).padStart(5)}  tv-v4 ${tv(m, refs.v4).toFixed(1).padStart(5)}`;
  console.log(`== ${repo} (${records.length} tasks)   sc / file / repo`);
  console.log(row('REPOCOD v1', refs.v1)); console.log(row('REPOCOD v4', refs.v4));
  for (const [name, m] of Object.entries(counts)) { console.log(row(name, m)); sums[name] ??= { v1: 0, v4: 0 }; sums[name].v1 += tv(m, refs.v1); sums[name].v4 += tv(m, refs.v4); }
}
console.log('mean tv over', repos.length, Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, `v1 ${(v.v1 / repos.length).toFixed(1)} v4 ${(v.v4 / repos.length).toFixed(1)}`])));
import { writeFileSync } from 'node:fs';
writeFileSync('out/level-detail.json', JSON.stringify(detail, null, 1));
