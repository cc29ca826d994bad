import { Box, Text, useInput } from 'ink';
import type React from 'react';
import { useState } from 'react';
import type { FlowStatus, RepositoryStatus } from '@repocod/pipeline';
import type { KeyHelp } from './help-bar.js';

export const SOURCES_KEYS: readonly KeyHelp[] = [
  { key: '↑↓', action: 'move' },
  { key: 'space', action: 'include' },
  { key: 'a', action: 'all/none' },
  { key: 'r', action: 'run the flow' },
];

export interface SourcesScreenProps {
  readonly status: FlowStatus;
  readonly included: ReadonlySet<string>;
  readonly width: number;
  readonly height: number;
  readonly active: boolean;
  readonly onToggle: (names: readonly string[], include: boolean) => void;
  readonly onRun: () => void;
}

/**
 * The manifest's repositories with what is done for each (checkout, environment, functions, mined,
 * tasks, read from the state folder and the catalog), the latest selection, validation and release:
 * on a second start this is where the curator sees how far the last session got.
 */
export function SourcesScreen(props: SourcesScreenProps): React.JSX.Element {
  const { status, included, width, height } = props;
  const [cursor, setCursor] = useState(0);
  const repositories = status.repositories;
  useInput(
    (input, key) => {
      if (key.upArrow) setCursor((at) => Math.max(0, at - 1));
      else if (key.downArrow) setCursor((at) => Math.min(repositories.length - 1, at + 1));
      else if (input === ' ') {
        const name = repositories[cursor]?.name;
        if (name !== undefined) props.onToggle([name], !included.has(name));
      } else if (input === 'a') {
        const all = repositories.every((repository) => included.has(repository.name));
        props.onToggle(
          repositories.map((repository) => repository.name),
          !all,
        );
      } else if (input === 'r' || key.return) props.onRun();
    },
    { isActive: props.active },
  );
  const wide = width >= 110;
  const standIns = repositories
    .filter((repository) => repository.baseCommit === null && repository.standInFor !== null)
    .map((repository) => repository.name);
  const footer = standIns.length === 0 ? 4 : 5;
  const visible = Math.max(1, height - 2 - footer);
  const first = Math.min(Math.max(0, cursor - Math.floor(visible / 2)), Math.max(0, repositories.length - visible));
  const nameWidth = Math.min(18, Math.max(...repositories.map((repository) => repository.name.length), 4));
  const header =
    `    ${'repository'.padEnd(nameWidth)} ${'commit'.padEnd(12)} co env ${'functions'.padStart(9)} ` +
    `${'cand'.padStart(5)} ${'mined'.padStart(11)} ${'tasks'.padStart(5)}${wide ? '  origin' : ''}`;
  return (
    <Box flexDirection="column" width={width}>
      <Text bold wrap="truncate-end">
        {`repositories (${included.size} of ${repositories.length} chosen)`}
      </Text>
      <Text dimColor wrap="truncate-end">
        {header}
      </Text>
      {repositories.slice(first, first + visible).map((repository, index) => (
        <SourceRow
          key={repository.name}
          repository={repository}
          chosen={included.has(repository.name)}
          selected={first + index === cursor}
          nameWidth={nameWidth}
          wide={wide}
        />
      ))}
      <Box flexDirection="column" marginTop={1}>
        {standIns.length === 0 ? null : (
          <Text dimColor wrap="truncate-end">
            {`≈ ${standIns.join(', ')}: a folder that is not a git repository (a release's sdist) stands in for that ` +
              `commit`}
          </Text>
        )}
        <Text wrap="truncate-end">
          <Text dimColor>selection </Text>
          {status.selection === null
            ? 'none yet'
            : `${status.selection.selectionId}: ${status.selection.tasks} task(s)`}
        </Text>
        <Text wrap="truncate-end">
          <Text dimColor>validation </Text>
          <Text color="green">{`${status.validation.passed} passed`}</Text>
          {', '}
          <Text color={status.validation.failed > 0 ? 'red' : undefined}>{`${status.validation.failed} failed`}</Text>
          {`, ${status.validation.infraError} not judged, ${status.validation.notValidated} to validate`}
        </Text>
        <Text wrap="truncate-end">
          <Text dimColor>release </Text>
          {`${status.releaseFolder}: ${
            status.releasedVersions.length === 0
              ? 'no version yet'
              : status.releasedVersions.map((version) => `${version.version} (${version.tasks})`).join(', ')
          }`}
        </Text>
      </Box>
    </Box>
  );
}

/**
 * The base commit; for a folder standing in for one (a release's sdist), `≈` and the commit it stands
 * in for, so that the curator sees it is not REPOCOD's tree; `local` for a folder snapshotted as it is.
 */
export function commitCell(repository: Pick<RepositoryStatus, 'baseCommit' | 'standInFor'>): string {
  if (repository.baseCommit !== null) return repository.baseCommit.slice(0, 12).padEnd(12);
  if (repository.standInFor !== null) return `≈${repository.standInFor.slice(0, 11)}`;
  return 'local'.padEnd(12);
}

function SourceRow(props: {
  readonly repository: RepositoryStatus;
  readonly chosen: boolean;
  readonly selected: boolean;
  readonly nameWidth: number;
  readonly wide: boolean;
}): React.JSX.Element {
  const { repository } = props;
  const tick = (yes: boolean): React.JSX.Element => {
    return <Text color={yes ? 'green' : 'gray'}>{yes ? ' ✓ ' : ' · '}</Text>;
  };
  return (
    <Text wrap="truncate-end" inverse={props.selected}>
      <Text color={props.chosen ? 'green' : undefined}>{props.chosen ? '[x] ' : '[ ] '}</Text>
      <Text bold>{repository.name.slice(0, props.nameWidth).padEnd(props.nameWidth)}</Text>
      {` ${commitCell(repository)}`}
      {tick(repository.checkedOut)}
      {tick(repository.environment)}
      {` ${String(repository.functions).padStart(9)} ${String(repository.candidates).padStart(5)} ` +
        `${`${repository.withTests}/${repository.mined}`.padStart(11)} ${String(repository.tasks).padStart(5)}`}
      {props.wide ? <Text dimColor>{`  ${repository.origin}`}</Text> : null}
    </Text>
  );
}
