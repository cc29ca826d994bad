import { releasedVersions } from '../../release/released-versions.js';
import { publishStep } from '../../steps/publish.js';
import type { CollectiveStage, StageDefinition } from '../stage-contract.js';

/** The selection's validated tasks as a new version of the release folder (never rewriting one). */
const PUBLISH_RUN: CollectiveStage = {
  stage: 'publish',
  scope: 'all',
  async run({ catalog, settings, state }, progress) {
    const { out, version, push } = settings;
    const earlier = releasedVersions(out).find((config) => config.version === version);
    if (earlier !== undefined && push === undefined) {
      progress.step(1, 1, `${version} is already in ${out}`);
      progress.problem(
        `version ${version} is already released in ${out} (versions are never rewritten); ` +
          'give another version to release the catalog as it is now',
      );
      state.release = { folder: out, version, rows: earlier.numExamples, written: false };
      return `version ${version} already in ${out} (${earlier.numExamples} tasks): left as it is`;
    }
    const value = await publishStep(catalog, {
      version: earlier === undefined ? version : undefined,
      out,
      selectionId: state.selectionId,
      keep: settings.keep,
      push,
      stateRoot: settings.stateRoot,
      reference: { projectRoot: settings.projectRoot, manifest: settings.manifest, sources: settings.sources },
      // The card's "Changes since" section then says which earlier tasks left because their body is older.
      cutoff: settings.changedSince,
    });
    progress.step(1, 1, value.writes.map((write) => write.path).join(', '));
    const rows = value.content?.rows.length ?? earlier?.numExamples ?? 0;
    state.release = { folder: out, version, rows, written: value.version !== null };
    const pushed =
      value.pushed === null ? '' : `; pushed to ${push?.repo} (commit ${value.pushed.commitOid.slice(0, 12)})`;
    const written =
      value.version === null ? `version ${version} already in ${out}` : `version ${version}: ${rows} task(s) in ${out}`;
    return `${written}${pushed}`;
  },
};

export const PUBLISH: StageDefinition = {
  stage: 'publish',
  title: 'release folder',
  rows: 'one',
  runner: () => PUBLISH_RUN,
  stored: (status) =>
    status.releasedVersions.length === 0
      ? null
      : `versions ${status.releasedVersions.map((version) => version.version).join(', ')}`,
};
