import { IN_MEMORY, openCatalog } from '@repocod/catalog';
import { REPOCOD_LITE_SPEC } from '@repocod/tasks';
import { describe, expect, it } from 'vitest';
import { flowSelectionSpec } from './flow-selection-spec.js';
import type { StageContext } from './stage-contract.js';

const ERA = 'demo@bbbbbbbbbbbb';

/** What flowSelectionSpec reads of a flow: the catalog, the spec, the repositories left, their catalog names. */
function contextOf(catalog: StageContext['catalog'], active: string[], built: Record<string, string>): StageContext {
  return {
    catalog,
    settings: { spec: REPOCOD_LITE_SPEC },
    state: { active },
    repositories: { catalogNameOf: (name: string) => built[name] ?? name },
  } as unknown as StageContext;
}

describe("the flow's selection spec", () => {
  it('leaves out the other commits of the repositories the flow built, and is the spec itself otherwise', async () => {
    const catalog = await openCatalog(IN_MEMORY);
    try {
      for (const name of ['demo', ERA, 'flask']) await catalog.upsertRepository(name, `/src/${name}`);
      // Built --at another commit: the manifest's commit of the demo is left out, flask (not built here) stays.
      const atEra = await flowSelectionSpec(contextOf(catalog, ['demo'], { demo: ERA }));
      expect(atEra).toEqual({
        ...REPOCOD_LITE_SPEC,
        filter: `(${REPOCOD_LITE_SPEC.filter}) AND repository NOT IN ('demo')`,
      });
      // Built at the manifest's commit: the era is left out.
      const atManifest = await flowSelectionSpec(contextOf(catalog, ['demo', 'flask'], {}));
      expect(atManifest.filter).toBe(`(${REPOCOD_LITE_SPEC.filter}) AND repository NOT IN ('${ERA}')`);
      // Nothing of another commit: the spec as given, so the selection's id is what it always was.
      expect(await flowSelectionSpec(contextOf(catalog, ['flask'], {}))).toBe(REPOCOD_LITE_SPEC);
    } finally {
      await catalog.close();
    }
  });
});
