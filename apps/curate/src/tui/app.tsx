import { Box, Text, useApp, useInput, useStdout } from 'ink';
import type React from 'react';
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { FlowEvent, FlowStage, FlowStatus } from '@repocod/pipeline';
import { FLOW_STAGES, FlowAborted } from '@repocod/pipeline';
import type { CurateSession } from '../curate-session.js';
import { nextVersion } from '../curate-session.js';
import type { FlowBoard } from '../flow-board.js';
import type { ScreenName } from './app-state.js';
import { appReducer, initialAppState } from './app-state.js';
import type { KeyHelp } from './help-bar.js';
import { HelpBar } from './help-bar.js';
import { PUBLISH_KEYS, PublishScreen } from './publish-screen.js';
import { SOURCES_KEYS, SourcesScreen } from './sources-screen.js';
import { STAGES_KEYS, StagesScreen } from './stages-screen.js';
import { TASK_KEYS, TaskScreen } from './task-screen.js';
import { TASKS_KEYS, TasksScreen } from './tasks-screen.js';
import { VALIDATION_KEYS, ValidationScreen } from './validation-screen.js';
import { EVALUATE_KEYS, EvaluateScreen } from './evaluate-screen.js';
import type { EvaluatedRow } from './evaluate-view.js';

/** The tabs, in the order of their number keys; the task screen opens from the tasks table. */
const TABS: readonly { readonly screen: Exclude<ScreenName, 'task'>; readonly title: string }[] = [
  { screen: 'sources', title: 'sources' },
  { screen: 'stages', title: 'stages' },
  { screen: 'tasks', title: 'tasks' },
  { screen: 'validation', title: 'validation' },
  { screen: 'publish', title: 'publish' },
  { screen: 'evaluate', title: 'evaluate' },
];

const GLOBAL_KEYS: readonly KeyHelp[] = [
  { key: '1-6/tab', action: 'screens' },
  { key: 'q', action: 'quit' },
];

/** Every stage but publish: the release waits for the curator's confirmation on the publish screen. */
const FLOW_UNTIL_VALIDATION: readonly FlowStage[] = FLOW_STAGES.filter((stage) => stage !== 'publish');

export interface AppProps {
  readonly session: CurateSession;
  readonly initialStatus: FlowStatus;
  /** Repositories named with --repo: chosen from the start. */
  readonly requested: readonly string[];
  /** Start the flow at once (the curator named the repositories). */
  readonly autoRun?: boolean;
  /** Fixed size for tests; a real terminal's size (and its resizes) otherwise. */
  readonly size?: { readonly width: number; readonly height: number };
}

/**
 * The curator's TUI: a header with the tabs, the current screen, a line for messages and the help bar.
 * The flow runs in this process through the session; its events fold into the board the stages
 * screen draws. Quitting while it runs asks first; what finished is in the catalog either way.
 */
export function App(props: AppProps): React.JSX.Element {
  const { session } = props;
  const { exit } = useApp();
  const size = useTerminalSize(props.size);
  const [state, dispatch] = useReducer(appReducer, undefined, () =>
    initialAppState({
      status: props.initialStatus,
      requested: props.requested,
      version:
        session.settings.version ?? nextVersion(props.initialStatus.releasedVersions.map((item) => item.version)),
      now: Date.now(),
    }),
  );
  const { screen, status, included, board, running, now, tasks, detail, validation } = state;
  const { version, preview, outcome, message, confirmQuit, typing, evaluation } = state;
  const abort = useRef<AbortController | null>(null);

  const report = useCallback(
    (error: unknown) =>
      dispatch({
        kind: 'message',
        message: error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error),
      }),
    [],
  );
  // One loader per thing the screens read from the session: each dispatches what it found.
  const refreshStatus = useCallback(
    async () => dispatch({ kind: 'status', status: await session.status() }),
    [session],
  );
  const loadTasks = useCallback(async () => dispatch({ kind: 'tasks', tasks: await session.tasks() }), [session]);
  const loadValidation = useCallback(
    async () => dispatch({ kind: 'validation', overview: await session.validation() }),
    [session],
  );
  const loadPreview = useCallback(
    async (chosen: string) => {
      dispatch({ kind: 'preview', preview: { state: 'loading' } });
      try {
        dispatch({ kind: 'preview', preview: { state: 'ready', summary: await session.previewPublish(chosen) } });
      } catch (error) {
        dispatch({
          kind: 'preview',
          preview: { state: 'error', message: error instanceof Error ? error.message : String(error) },
        });
      }
    },
    [session],
  );

  const onEvent = useCallback((event: FlowEvent) => dispatch({ kind: 'flow-event', event, at: Date.now() }), []);

  const runFlow = useCallback(
    (stages: readonly FlowStage[], after: (ok: boolean) => Promise<void>, show?: ScreenName) => {
      if (running) return;
      if (evaluation.state === 'running') {
        dispatch({ kind: 'message', message: 'an evaluation is running: the flow can start once it stops' });
        return;
      }
      if (included.size === 0) {
        dispatch({ kind: 'message', message: 'choose at least one repository (space on the sources screen)' });
        return;
      }
      dispatch({ kind: 'flow-started', screen: show });
      const controller = new AbortController();
      abort.current = controller;
      let ended: string | null = null;
      session
        .run([...included], stages, onEvent, controller.signal, version)
        .then(async (result) => {
          await refreshStatus();
          await after(result.ok);
          if (!result.ok)
            ended = `${result.failures.length} stage(s) failed: the stages screen says why; r carries on once mended`;
        })
        .catch((error: unknown) => {
          if (error instanceof FlowAborted) ended = 'stopped: what finished is in the catalog; r carries on';
          else ended = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
        })
        .finally(() => {
          abort.current = null;
          dispatch({ kind: 'flow-ended', message: ended });
        });
    },
    [running, evaluation.state, included, session, onEvent, version, refreshStatus],
  );

  const startEvaluation = useCallback(
    (predictions: string | null) => {
      if (running || evaluation.state === 'running') {
        dispatch({ kind: 'message', message: 'a flow or an evaluation is running: evaluate once it stops' });
        return;
      }
      dispatch({ kind: 'evaluate-started', predictions: predictions ?? 'gold', at: Date.now() });
      session
        .evaluate(predictions, (event) => dispatch({ kind: 'evaluate-event', event }))
        .then((summary) => {
          const report = summary.reports.find((entry) => entry.model !== undefined)?.report;
          const headline =
            report === undefined
              ? 'nothing was evaluated'
              : `pass@1 ${(report.pass_at_1 * 100).toFixed(1)}%: ${report.resolved_instances} of \
${report.total_instances} resolved (${summary.reports.length} model(s); report ${summary.reports[0]?.file ?? ''})`;
          dispatch({ kind: 'evaluate-ended', ok: true, message: headline });
        })
        .catch((error: unknown) =>
          dispatch({
            kind: 'evaluate-ended',
            ok: false,
            message: error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error),
          }),
        );
    },
    [running, evaluation.state, session],
  );

  const loadEvaluationLog = useCallback(
    async (row: EvaluatedRow) => session.evaluationLog(evaluation.runId ?? '', row.model, row.instanceId),
    [session, evaluation.runId],
  );

  const startFlow = useCallback(() => {
    runFlow(
      FLOW_UNTIL_VALIDATION,
      async (ok) => {
        if (!ok) return;
        dispatch({ kind: 'open', screen: 'publish' });
        await loadPreview(version);
      },
      'stages',
    );
  }, [runFlow, loadPreview, version]);

  const publish = useCallback(() => {
    dispatch({ kind: 'outcome', outcome: { ok: true, message: `publishing version ${version}…` } });
    runFlow(['publish'], async (ok) => {
      const released = (await session.status()).releasedVersions.map((item) => item.version);
      const pushed = session.settings.push === null ? '' : ` and pushed to ${session.settings.push.repo}`;
      dispatch({
        kind: 'outcome',
        outcome: ok
          ? { ok: true, message: `version ${version} written to ${session.settings.out}${pushed}` }
          : { ok: false, message: `publishing failed: see the stages screen (2)` },
      });
      if (ok) {
        const next = nextVersion(released);
        dispatch({ kind: 'version', version: next });
        await loadPreview(next);
      }
    });
  }, [runFlow, session, version, loadPreview]);

  // Elapsed times and ETAs move while the flow or an evaluation runs.
  const ticking = running || evaluation.state === 'running';
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => dispatch({ kind: 'tick', now: Date.now() }), 1000);
    return () => clearInterval(timer);
  }, [ticking]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: only at the start
  useEffect(() => {
    if (props.autoRun === true) startFlow();
  }, []);

  const open = useCallback(
    (target: ScreenName) => {
      dispatch({ kind: 'open', screen: target });
      if (target === 'sources') refreshStatus().catch(report);
      if (target === 'tasks') loadTasks().catch(report);
      if (target === 'validation') loadValidation().catch(report);
      if (target === 'publish' && preview.state !== 'loading' && !running) loadPreview(version).catch(report);
    },
    [refreshStatus, loadTasks, loadValidation, loadPreview, report, preview.state, running, version],
  );

  const quit = useCallback(() => {
    abort.current?.abort();
    exit();
  }, [exit]);

  const setTyping = useCallback((typing: boolean) => dispatch({ kind: 'typing', typing }), []);

  useInput(
    (input, key) => {
      if (confirmQuit) {
        if (input === 'y') quit();
        else if (input === 'n' || key.escape) dispatch({ kind: 'confirm-quit', asking: false });
        return;
      }
      if (input === 'q') {
        if (running) dispatch({ kind: 'confirm-quit', asking: true });
        else quit();
        return;
      }
      if (screen === 'task') {
        // The task screen's digits and Tab move between its sections: Esc is the way back.
        if (key.escape || key.backspace) dispatch({ kind: 'open', screen: 'tasks' });
        return;
      }
      const tab = Number(input);
      const chosen = Number.isInteger(tab) && tab >= 1 ? TABS[tab - 1] : undefined;
      if (chosen !== undefined) open(chosen.screen);
      else if (key.tab) {
        const at = TABS.findIndex((item) => item.screen === screen);
        const next = TABS[(at + (key.shift ? TABS.length - 1 : 1)) % TABS.length];
        if (next !== undefined) open(next.screen);
      } else if (input === 'r' && screen === 'stages') startFlow();
      else if (input === 'x' && running) {
        abort.current?.abort();
        dispatch({ kind: 'message', message: 'stopping after the current step…' });
      }
    },
    { isActive: !typing },
  );

  const bodyHeight = Math.max(4, size.height - 4);
  const keys =
    screen === 'task' ? [...screenKeys(screen), { key: 'q', action: 'quit' }] : [...screenKeys(screen), ...GLOBAL_KEYS];
  return (
    <Box flexDirection="column" width={size.width} height={size.height - 1}>
      <Header screen={screen} width={size.width} running={running} board={board} />
      <Box height={bodyHeight} flexDirection="column" overflow="hidden">
        {screen === 'sources' ? (
          <SourcesScreen
            status={status}
            included={included}
            width={size.width}
            height={bodyHeight}
            active={!confirmQuit}
            onToggle={(names, include) => dispatch({ kind: 'toggle', names, include })}
            onRun={startFlow}
          />
        ) : null}
        {screen === 'stages' ? (
          <StagesScreen board={board} width={size.width} height={bodyHeight} now={Math.max(now, Date.now())} />
        ) : null}
        {screen === 'tasks' ? (
          tasks === null ? (
            <Text dimColor>reading the tasks…</Text>
          ) : (
            <TasksScreen
              tasks={tasks}
              width={size.width}
              height={bodyHeight}
              active={!confirmQuit}
              onTextEntry={setTyping}
              onOpen={(instanceId) => {
                session
                  .task(instanceId)
                  .then((found) => dispatch({ kind: 'detail', detail: found }))
                  .catch(report);
              }}
            />
          )
        ) : null}
        {screen === 'task' && detail !== null ? (
          <TaskScreen detail={detail} width={size.width} height={bodyHeight} active={!confirmQuit} />
        ) : null}
        {screen === 'validation' ? (
          validation === null ? (
            <Text dimColor>reading the validations…</Text>
          ) : (
            <ValidationScreen
              overview={validation}
              width={size.width}
              height={bodyHeight}
              active={!confirmQuit}
              loadLog={(runId) => session.log(runId)}
            />
          )
        ) : null}
        {screen === 'publish' ? (
          <PublishScreen
            version={version}
            folder={session.settings.out}
            hub={
              session.settings.push === null
                ? null
                : `${session.settings.push.repo}${
                    session.settings.push.hubUrl === undefined
                      ? ''
                      : ` at \
${session.settings.push.hubUrl}`
                  }`
            }
            preview={preview}
            outcome={outcome}
            busy={running}
            width={size.width}
            height={bodyHeight}
            active={!confirmQuit}
            onEditing={setTyping}
            onVersion={(chosen) => {
              dispatch({ kind: 'version', version: chosen });
              dispatch({ kind: 'outcome', outcome: null });
              loadPreview(chosen).catch(report);
            }}
            onPreview={() => {
              loadPreview(version).catch(report);
            }}
            onConfirm={publish}
          />
        ) : null}
        {screen === 'evaluate' ? (
          <EvaluateScreen
            view={evaluation}
            release={session.settings.out}
            width={size.width}
            height={bodyHeight}
            active={!confirmQuit}
            now={Math.max(now, Date.now())}
            onTextEntry={setTyping}
            onStart={startEvaluation}
            loadLog={loadEvaluationLog}
          />
        ) : null}
      </Box>
      <Text wrap="truncate-end" color={confirmQuit ? 'yellow' : 'red'}>
        {confirmQuit ? 'the flow is running: quit now? what finished is kept in the catalog (y/n)' : (message ?? ' ')}
      </Text>
      <HelpBar keys={keys} width={size.width} />
    </Box>
  );
}

function Header(props: {
  readonly screen: ScreenName;
  readonly width: number;
  readonly running: boolean;
  readonly board: FlowBoard;
}): React.JSX.Element {
  const current = props.screen === 'task' ? 'tasks' : props.screen;
  const runningRow = props.board.rows.find((row) => row.status === 'running');
  return (
    <Text wrap="truncate-end">
      <Text bold color="magenta">
        repocod{' '}
      </Text>
      {TABS.map((tab, index) => (
        <Text key={tab.screen} inverse={tab.screen === current} bold={tab.screen === current}>
          {` ${index + 1} ${tab.title} `}
        </Text>
      ))}
      {props.running ? (
        <Text color="yellow">{` ▶ \
${
  runningRow === undefined
    ? 'running'
    : `${runningRow.stage}${
        runningRow.repository === null
          ? ''
          : ` \
${runningRow.repository}`
      }`
}`}</Text>
      ) : null}
    </Text>
  );
}

function screenKeys(screen: ScreenName): readonly KeyHelp[] {
  switch (screen) {
    case 'sources':
      return SOURCES_KEYS;
    case 'stages':
      return STAGES_KEYS;
    case 'tasks':
      return TASKS_KEYS;
    case 'task':
      return [{ key: 'esc', action: 'back to the tasks' }, ...TASK_KEYS];
    case 'validation':
      return VALIDATION_KEYS;
    case 'publish':
      return PUBLISH_KEYS;
    case 'evaluate':
      return EVALUATE_KEYS;
  }
}

function useTerminalSize(fixed: AppProps['size']): { width: number; height: number } {
  const { stdout } = useStdout();
  const read = (): { width: number; height: number } =>
    fixed ?? { width: stdout.columns > 0 ? stdout.columns : 80, height: stdout.rows > 0 ? stdout.rows : 24 };
  const [size, setSize] = useState(read);
  // biome-ignore lint/correctness/useExhaustiveDependencies: listens for resizes once; `fixed` and `read` do not change
  useEffect(() => {
    if (fixed !== undefined) return;
    const onResize = (): void => setSize(read());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
    // The stream is the same for the life of the app.
  }, [stdout]);
  return size;
}
