import { projectName } from '@repocod/runner';
import type { SelectionSpec } from '@repocod/tasks';
import type { StageContext } from './stage-contract.js';

/**
 * The flow's spec over the commits it built. A catalog may hold another commit of a repository the flow builds (its
 * manifest's, when the flow builds it --at another: catalog-name.ts), and a version takes one commit of each, so
 * those are filtered out. The spec is unchanged when there is none, so a flow's selection id is what it always was.
 */
export async function flowSelectionSpec(context: StageContext): Promise<SelectionSpec> {
  const { catalog, settings, state, repositories } = context;
  const built = state.active.map((name) => repositories.catalogNameOf(name));
  const others = (await catalog.repositories())
    .map((repository) => repository.name)
    .filter((name) => !built.includes(name) && built.some((era) => projectName(era) === projectName(name)));
  if (others.length === 0) return settings.spec;
  const names = others.map((name) => `'${name.replaceAll("'", "''")}'`).join(', ');
  return { ...settings.spec, filter: `(${settings.spec.filter}) AND repository NOT IN (${names})` };
}
