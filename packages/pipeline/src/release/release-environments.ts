import { join } from 'node:path';
import type { StoredValidation } from '@repocod/catalog';
import { environmentDirectoryName, projectName, readEnvironmentMarker } from '@repocod/runner';

/** Beside each version's Parquet: the exact packages each repository's tasks were validated with. */
export const ENVIRONMENTS_RECORD = 'environments.txt';

/**
 * The environments of the released tasks' validations, one block per repository and environment:
 * a header (Python, installer, the date versions were resolved as of, the key and packages hash),
 * then the sorted `name==version` list from the environment's marker. An environment no longer on
 * this machine is named by its hash alone, and says so.
 */
export function releaseEnvironments(validations: readonly StoredValidation[], envsRoot: string): string {
  const seen = new Map<string, StoredValidation>();
  // Named as the release names repositories; an era's environment lives under the project's name (catalog-name.ts).
  for (const stored of validations) {
    const validation = { ...stored, repository: projectName(stored.repository) };
    seen.set(`${validation.repository}\n${validation.environmentKey}`, validation);
  }
  const blocks = [...seen.values()]
    .sort((a, b) =>
      a.repository === b.repository
        ? a.environmentKey < b.environmentKey
          ? -1
          : 1
        : a.repository < b.repository
          ? -1
          : 1,
    )
    .map((validation) => {
      const marker = readEnvironmentMarker(
        join(envsRoot, environmentDirectoryName(validation.repository, validation.environmentKey)),
      );
      const header = [
        `# ${validation.repository}: Python ${validation.pythonVersion}, environment ` +
          `${validation.environmentKey.slice(0, 16)}, packages sha256 ${validation.packagesHash.slice(0, 16)}`,
      ];
      if (marker === null)
        return [
          ...header,
          '# (the environment is not on the machine that released this version: packages not listed)',
        ].join('\n');
      const resolved =
        marker.resolvedAsOf === undefined || marker.resolvedAsOf === null
          ? 'undated'
          : `resolved as of ${marker.resolvedAsOf}`;
      return [...header, `# installer ${marker.installer}, ${resolved}`, ...marker.packages].join('\n');
    });
  return `${blocks.join('\n\n')}\n`;
}
