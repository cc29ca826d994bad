import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCatalog } from '@repocod/catalog';
import { afterAll, describe, expect, it } from 'vitest';
import type { FlowEvent } from './flow-events.js';
import { flowSettings, runFlow } from './flow.js';
import type { StageDefinition } from './stage-contract.js';
import { FLOW_STAGE_LIST, FLOW_STAGES, flowStages, PER_REPOSITORY_STAGES, stageTitle } from './stage-list.js';

const dir = mkdtempSync(join(tmpdir(), 'repocod-flow-stages-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const settingsOf = (mineAll: boolean) => flowSettings({ projectRoot: dir, repositories: [], out: dir, mineAll });

describe('flowStages', () => {
  it('runs the stages in the order of the flow, Lite-first mining as one stage that spans the repositories', () => {
    const liteFirst = flowStages(settingsOf(false));
    expect(liteFirst.map((stage) => `${stage.stage}:${stage.scope}`)).toEqual([
      'prepare:repository',
      'extract:repository',
      'mine:spanning',
      'select:all',
      'validate:all',
      'publish:all',
    ]);
    const all = flowStages(settingsOf(true));
    expect(all.map((stage) => stage.stage)).toEqual([...FLOW_STAGES]);
    expect(all.filter((stage) => stage.scope === 'repository').map((stage) => stage.stage)).toEqual([
      'prepare',
      'extract',
      'mine',
      'tasks',
    ]);
  });

  it('reads the names, titles and rows of the stages from the stage list alone', () => {
    expect(FLOW_STAGES).toEqual(['prepare', 'extract', 'mine', 'tasks', 'select', 'validate', 'publish']);
    expect(stageTitle('validate')).toBe('validation with the shared runner');
    expect(stageTitle('audit', [...FLOW_STAGE_LIST, AUDIT])).toBe('an audit of the release');
    expect([...PER_REPOSITORY_STAGES]).toEqual(['prepare', 'extract', 'mine', 'tasks']);
  });
});

/** A stage of a test's own: one object, one entry in the list it is run with. */
const AUDIT: StageDefinition = {
  stage: 'audit',
  title: 'an audit of the release',
  rows: 'one',
  runner: () => ({
    stage: 'audit',
    scope: 'all',
    async run(_context, progress) {
      progress.step(1, 1, 'every task read');
      return 'audited: nothing to say';
    },
  }),
  stored: () => null,
};

describe('a stage added to the flow', () => {
  it('runs in its place with its own row, from one object and one entry in the stage list', async () => {
    const catalog = await openCatalog(join(dir, 'catalog.duckdb'));
    try {
      const events: FlowEvent[] = [];
      const result = await runFlow(catalog, {
        projectRoot: dir,
        repositories: ['demo'],
        out: join(dir, 'release'),
        stageList: [...FLOW_STAGE_LIST, AUDIT],
        stages: ['audit'],
        onEvent: (event) => events.push(event),
      });
      expect(result.ok).toBe(true);
      expect(events.map((event) => `${event.kind}${'stage' in event ? ` ${event.stage}` : ''}`)).toEqual([
        'flow-start',
        'stage-start audit',
        'stage-progress audit',
        'stage-done audit',
        'flow-done',
      ]);
      expect(events[0]).toMatchObject({ kind: 'flow-start', stages: ['audit'] });
      expect(events.find((event) => event.kind === 'stage-done')).toMatchObject({
        repository: null,
        summary: 'audited: nothing to say',
      });
    } finally {
      await catalog.close();
    }
  });

  it("refuses a stage chosen without the stages it needs, naming them from the stages' own needs", async () => {
    const catalog = await openCatalog(join(dir, 'needs.duckdb'));
    try {
      const run = runFlow(catalog, { projectRoot: dir, repositories: ['demo'], out: dir, stages: ['extract'] });
      await expect(run).rejects.toThrow('the flow runs extract, mine and tasks only with prepare');
    } finally {
      await catalog.close();
    }
  });
});
