import { nextVersion } from '../curate-session.js';
import { PublishScreen } from './publish-screen.js';
import type { ScreenContext, ScreenController } from './screen.js';

/**
 * The publish screen's controller: the version the flow proposes, publish's dry run of it (read as the
 * screen opens, unless one is on its way or the flow runs), and the release once the curator confirms.
 */
export function usePublishScreen({
  session,
  state,
  dispatch,
  report,
  setTyping,
  flow,
}: ScreenContext): ScreenController {
  const { version, preview, outcome, running } = state;
  const { push, out } = session.settings;

  const publish = (): void => {
    dispatch({ kind: 'outcome', outcome: { ok: true, message: `publishing version ${version}…` } });
    flow.runFlow(['publish'], async (ok) => {
      const released = (await session.status()).releasedVersions.map((item) => item.version);
      const pushed = push === null ? '' : ` and pushed to ${push.repo}`;
      dispatch({
        kind: 'outcome',
        outcome: ok
          ? { ok: true, message: `version ${version} written to ${out}${pushed}` }
          : { ok: false, message: `publishing failed: see the stages screen (2)` },
      });
      if (ok) {
        const next = nextVersion(released);
        dispatch({ kind: 'version', version: next });
        await flow.loadPreview(next);
      }
    });
  };

  return {
    load: () => {
      if (preview.state !== 'loading' && !running) flow.loadPreview(version).catch(report);
    },
    render: (frame) => (
      <PublishScreen
        version={version}
        folder={out}
        hub={push === null ? null : `${push.repo}${push.hubUrl === undefined ? '' : ` at ${push.hubUrl}`}`}
        preview={preview}
        outcome={outcome}
        busy={running}
        {...frame}
        onEditing={setTyping}
        onVersion={(chosen) => {
          dispatch({ kind: 'version', version: chosen });
          dispatch({ kind: 'outcome', outcome: null });
          flow.loadPreview(chosen).catch(report);
        }}
        onPreview={() => {
          flow.loadPreview(version).catch(report);
        }}
        onConfirm={publish}
      />
    ),
  };
}
