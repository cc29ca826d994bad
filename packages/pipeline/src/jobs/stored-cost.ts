import type { Catalog } from '@repocod/catalog';
import type { BuildCost } from './cost-table.js';
import { COST_PHASES, type CostPhase } from './job-phase.js';

/**
 * What the flow's jobs have cost in this catalog (its job_costs, kept as each job ended), of the repositories whose
 * manifest name is `name` (every era of it) or of all: the cold cost of a build resumed over several runs, since a
 * job the catalog answers never runs twice. A phase this version does not know is counted as `other`.
 */
export async function storedCost(catalog: Pick<Catalog, 'jobCosts' | 'suiteSize'>, name?: string): Promise<BuildCost> {
  const rows = (await catalog.jobCosts()).filter(
    (row) => name === undefined || row.repository === name || row.repository.startsWith(`${name}@`),
  );
  const phases = rows.map(({ updatedAt: _, ...row }) => ({
    ...row,
    phase: (COST_PHASES as readonly string[]).includes(row.phase) ? (row.phase as CostPhase) : ('other' as const),
    busySeconds: Math.round(row.busySeconds * 10) / 10,
  }));
  const order = (phase: CostPhase): number => COST_PHASES.indexOf(phase);
  phases.sort(
    (a, b) =>
      a.repository.localeCompare(b.repository) || order(a.phase) - order(b.phase) || a.stage.localeCompare(b.stage),
  );
  const suiteTests: Record<string, number> = {};
  for (const repository of new Set(phases.map((phase) => phase.repository))) {
    const size = await catalog.suiteSize(repository);
    if (size !== null) suiteTests[repository] = size;
  }
  return { phases, suiteTests };
}
