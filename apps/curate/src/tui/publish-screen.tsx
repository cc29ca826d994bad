import { Box, Text, useInput } from 'ink';
import type React from 'react';
import { useSyncedState } from './synced-state.js';
import type { PublishSummary } from '@repocod/pipeline';
import type { KeyHelp } from './help-bar.js';

export const PUBLISH_KEYS: readonly KeyHelp[] = [
  { key: 'e', action: 'edit the version' },
  { key: 'p', action: 'preview again' },
  { key: 'y', action: 'publish' },
];

/** The dry run behind the screen: nothing written until the curator confirms. */
export type PublishPreview =
  | { readonly state: 'none' }
  | { readonly state: 'loading' }
  | { readonly state: 'ready'; readonly summary: PublishSummary }
  | { readonly state: 'error'; readonly message: string };

export interface PublishScreenProps {
  readonly version: string;
  readonly folder: string;
  /** `ORG/NAME` on the Hub (and its endpoint), or null for the folder only. */
  readonly hub: string | null;
  readonly preview: PublishPreview;
  /** What the last publish said, or null before one. */
  readonly outcome: { readonly ok: boolean; readonly message: string } | null;
  /** A flow is running: publishing waits for it. */
  readonly busy: boolean;
  readonly width: number;
  readonly height: number;
  readonly active: boolean;
  /** The screen is typing into the version: the shell must not take the keys. */
  readonly onEditing: (editing: boolean) => void;
  readonly onVersion: (version: string) => void;
  readonly onPreview: () => void;
  readonly onConfirm: () => void;
}

/** Version, target, what will be written and uploaded (publish's own dry run), and a confirmation. */
export function PublishScreen(props: PublishScreenProps): React.JSX.Element {
  // Read through `currentDraft()`: a typed version arrives key by key faster than React renders.
  const [draft, currentDraft, changeDraft] = useSyncedState<string | null>(null);
  useInput(
    (input, key) => {
      const typed = currentDraft();
      if (typed !== null) {
        if (key.return) {
          const chosen = typed.trim();
          changeDraft(() => null);
          props.onEditing(false);
          if (chosen !== '' && chosen !== props.version) props.onVersion(chosen);
        } else if (key.escape) {
          changeDraft(() => null);
          props.onEditing(false);
        } else if (key.backspace || key.delete) changeDraft((text) => (text ?? '').slice(0, -1));
        else if (/^[\w.+-]+$/.test(input)) changeDraft((text) => (text ?? '') + input);
        return;
      }
      if (input === 'e') {
        changeDraft(() => props.version);
        props.onEditing(true);
      } else if (input === 'p') props.onPreview();
      else if (input === 'y' && !props.busy && props.preview.state === 'ready') props.onConfirm();
    },
    { isActive: props.active },
  );
  const { preview } = props;
  const room = Math.max(1, props.height - 9);
  return (
    <Box flexDirection="column" width={props.width}>
      <Text wrap="truncate-end">
        <Text dimColor>version </Text>
        {draft === null ? <Text bold>{props.version}</Text> : <Text inverse>{`${draft}▏`}</Text>}
        {draft === null ? null : <Text dimColor> (Enter to keep, Esc to cancel)</Text>}
      </Text>
      <Text wrap="truncate-end">
        <Text dimColor>folder </Text>
        {props.folder}
      </Text>
      <Text wrap="truncate-end">
        <Text dimColor>Hub </Text>
        {props.hub ?? 'not pushed (give --push ORG/NAME to upload)'}
      </Text>
      <Box flexDirection="column" marginTop={1}>
        {preview.state === 'none' ? <Text dimColor>p previews the release</Text> : null}
        {preview.state === 'loading' ? <Text color="yellow">reading the catalog for the release…</Text> : null}
        {preview.state === 'error' ? (
          <Text color="red" wrap="wrap">
            {preview.message}
          </Text>
        ) : null}
        {preview.state === 'ready' ? <PreviewLines summary={preview.summary} room={room} /> : null}
      </Box>
      <Box marginTop={1}>
        {props.outcome !== null ? (
          <Text color={props.outcome.ok ? 'green' : 'red'} wrap="truncate-end">
            {props.outcome.message}
          </Text>
        ) : props.busy ? (
          <Text color="yellow">the flow is running: publish once it is done</Text>
        ) : preview.state === 'ready' ? (
          <Text bold>y writes this release{props.hub === null ? '' : ` and pushes it to ${props.hub}`}</Text>
        ) : null}
      </Box>
    </Box>
  );
}

function PreviewLines({
  summary,
  room,
}: {
  readonly summary: PublishSummary;
  readonly room: number;
}): React.JSX.Element {
  const content = summary.content;
  const lines: { text: string; color?: string }[] = [];
  if (content !== null) {
    lines.push({
      text: `${content.rows.length} of the ${content.selected} task(s) of selection ${content.selectionId}`,
    });
    if (content.leftOut.length > 0)
      lines.push({ text: `left out (failed validation): ${content.leftOut.length}`, color: 'yellow' });
    if (content.kept.length > 0)
      lines.push({ text: `kept although they failed: ${content.kept.length}`, color: 'yellow' });
  }
  lines.push({
    text:
      `versions after: ${summary.release.configs.map((config) => config.version).join(', ')}; default → ` +
      `${summary.version ?? summary.release.version}`,
  });
  const files = summary.upload?.files ?? summary.writes.map((write) => ({ path: write.path, bytes: write.bytes }));
  lines.push({
    text:
      summary.upload === null
        ? `written (${files.length} files):`
        : `uploaded in one commit "${summary.commitTitle ?? ''}" (${files.length} files):`,
  });
  for (const file of files) lines.push({ text: `  ${file.path} (${formatBytes(file.bytes)})` });
  const shown = lines.slice(0, room);
  return (
    <Box flexDirection="column">
      {shown.map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a line is its place on the screen
        <Text key={index} color={line.color} wrap="truncate-end">
          {line.text}
        </Text>
      ))}
      {lines.length > shown.length ? <Text dimColor>{`… ${lines.length - shown.length} more`}</Text> : null}
    </Box>
  );
}

function formatBytes(bytes: number): string {
  return bytes < 1000
    ? `${bytes} B`
    : bytes < 1_000_000
      ? `${(bytes / 1000).toFixed(1)} kB`
      : `${(bytes / 1_000_000).toFixed(1)} MB`;
}
