import { isAbsolute, join, resolve } from 'node:path';
import { DEFAULT_RELEASE_VERSION, RepocodError, resolveWorkers } from '@repocod/core';
import type { FlowEvent } from '@repocod/pipeline';
import {
  DEFAULT_CATALOG_PATH,
  DEFAULT_RECORD_FOLDER,
  DEFAULT_RELEASE_FOLDER,
  FLOW_STAGES,
  listRepositories,
  openCatalog,
  referenceRepositories,
} from '@repocod/pipeline';
import type { CurateSettings } from './curate-session.js';
import { CurateSession } from './curate-session.js';
import { emptyBoard, foldFlowEvent } from './flow-board.js';
import type { ExecutorChoice } from './executor-option.js';
import { withExecutor } from './executor-option.js';
import { headlessLine, headlessSummary } from './headless-printer.js';
import type { CommandIO } from './io.js';
import { progressInterval } from './progress-line.js';
import { pushOption } from './push-option.js';
import type { ParsedArgs } from './parse-args.js';
import { listOption, stringOption, optionalWholeNumber } from './parse-args.js';
import { PROJECT_ROOT } from './project-root.js';
import { referenceSpec } from './reference-option.js';
import { formatWrittenRecords, recordFolder, writeRecords } from './record-command.js';
import { candidatesOption } from './candidates-option.js';
import { changedSinceOption, datedAgainstOption } from './changed-since-option.js';
import { marginOption, selectionSpecOption } from './spec-option.js';
import { repositoryOptions } from './repository-options.js';

export const CURATE_USAGE =
  `usage: repocod curate [--repo NAME]... [--version V] [--out DIR] [--yes] [--json] ` +
  `[--workers N] [--repeat K] [--executor URL] [--namespace NAME]
                      [--narrow] [--keep INSTANCE_ID]... [--push ORG/NAME [--hub-url URL]]
                      [--spec FILE] [--levels MODE] [--all | --margin 20%|N] [--candidates MODE] [--changed-since DATE]
                      [--dated-against NAME=OLDER_SDIST]...
                      [--reference NAME [--keep-all]] [--record [--record-out DIR]]
                      [--manifest FILE] [--source NAME=PATH] [--at NAME=REF] [--db FILE]

The whole flow: checkout and environment, functions, relevant tests and tasks for each repository,
then the Lite selection, the validation of every selected task and a release folder (default
out/release). On a terminal it opens the curator's TUI: choose the repositories, follow the stages,
browse the tasks and the validation, confirm the release. With --yes, or when stdout is not a
terminal, it runs without prompts on the repositories given with --repo (default: the bundled demo),
printing a line per step, a progress line every 30 s while a stage runs, and a summary; --json prints the flow's ` +
  `progress events as JSON lines
instead. Every stage keeps what it finished in the catalog: run it again to carry on. The version
defaults to ${DEFAULT_RELEASE_VERSION} (the TUI proposes the next one); a version already in the folder ` +
  `is left as it is.
Mining is Lite-first (see repocod mine --lite): only the candidates the selection (--spec FILE,
default REPOCOD-Lite) can pick, over all the repositories, with a margin over each quota (--margin);
--all mines every candidate; --candidates MODE chooses which, --changed-since DATE keeps only the bodies changed
after DATE (see repocod mine; --dated-against NAME=OLDER_SDIST dates a source without history against an older
release, as there). --levels MODE
chooses the context-level labelling the tasks, the Lite-first plan and the selection use (see repocod
tasks). --reference NAME rebuilds a reference (repocod reference): mine and tasks take exactly the
functions its rows resolve to (every one mined: Lite-first does not apply, nor --candidates), select
pools their tasks (--keep-all keeps every one, else the spec's quotas apply), and the release says
what became of each row (see repocod publish); without --repo it runs the repositories its rows name.
Headless, --record
then writes the record of each repository it ran (see repocod record) into --record-out DIR (default
${DEFAULT_RECORD_FOLDER}) when the flow succeeded. Exit code 1 when a stage fails.`;

export async function curateCommand(args: ParsedArgs, io: CommandIO, terminal: boolean): Promise<number> {
  if (args.positionals.length > 0) throw new RepocodError('usage', CURATE_USAGE);
  const settings = { ...curateSettings(args), progressIntervalMs: progressInterval(io) };
  const json = args.flags.get('json') === true;
  const headless = !terminal || args.flags.get('yes') === true || json;
  const run: CurateRun = {
    headless,
    json,
    requested: listOption(args, 'repo'),
    records: recordsFolder(args, headless),
  };
  return withExecutor(args, io, (choice) => curate(run, io, { ...settings, executor: choice.executor }, choice));
}

/** What the command line asks of this run beyond the session's settings, read once before anything runs. */
interface CurateRun {
  /** No TUI: --yes, --json, or no terminal. */
  readonly headless: boolean;
  readonly json: boolean;
  /** --repo NAME…: the repositories asked for (none: the reference's, else the demo). */
  readonly requested: readonly string[];
  /** Where --record writes the records after the flow; null without --record. */
  readonly records: string | null;
}

async function curate(
  { headless, json, requested, records }: CurateRun,
  io: CommandIO,
  settings: CurateSettings,
  choice: ExecutorChoice,
): Promise<number> {
  const catalog = await openCatalog(settings.catalogPath);
  try {
    const session = new CurateSession(catalog, settings);
    choice.onNotice = (line) => session.notice(line);
    const repositories =
      requested.length > 0 ? requested : await referenceRepositoriesOrDemo(session, io, settings.spec?.reference);
    if (headless) return await runHeadless(session, repositories, json, io, records);
    // Loaded only for the TUI: the headless mode (CI, scripts) never pays for React.
    const { runTui } = await import('./tui/run-tui.js');
    return await runTui(
      session,
      requested.length > 0 || settings.spec?.reference === undefined ? requested : repositories,
    );
  } finally {
    await catalog.close();
  }
}

/** Without --repo: the repositories a reference's rows name (those the manifest lacks are said), else the demo. */
async function referenceRepositoriesOrDemo(
  session: CurateSession,
  io: CommandIO,
  reference: string | undefined,
): Promise<readonly string[]> {
  if (reference === undefined) return ['demo'];
  const { known, unknown } = await referenceRepositories(
    session.catalog,
    reference,
    listRepositories(session.settings),
  );
  if (unknown.length > 0)
    io.err(
      `reference ${reference} names repositories the manifest does not have: ${unknown.join(', ')}; their rows ` +
        `are left unresolved\n`,
    );
  if (known.length === 0)
    throw new RepocodError('usage', `reference ${reference} names no repository of the manifest; give --repo NAME`);
  return known;
}

/** Where --record writes the records after the flow; null without --record. Checked before the flow runs. */
function recordsFolder(args: ParsedArgs, headless: boolean): string | null {
  const out = stringOption(args, 'record-out');
  if (args.flags.get('record') !== true) {
    if (out !== undefined) throw new RepocodError('usage', '--record-out goes with --record');
    return null;
  }
  if (!headless) {
    const instead = 'after a flow in the TUI, run `repocod record --repo NAME`';
    throw new RepocodError('usage', `--record goes with the headless mode (--yes); ${instead}`);
  }
  return recordFolder(out);
}

function curateSettings(args: ParsedArgs): CurateSettings {
  // Checked before anything runs: a bad name or a missing token must not surface after an hour of mining.
  const push = pushOption(args) ?? null;
  const out = stringOption(args, 'out');
  if (args.flags.get('all') === true && stringOption(args, 'margin') !== undefined)
    throw new RepocodError('usage', '--margin is for Lite-first mining; --all mines every candidate');
  const candidates = candidatesOption(args);
  const changedSince = changedSinceOption(args);
  return {
    ...repositoryOptions(args),
    catalogPath: stringOption(args, 'db') ?? DEFAULT_CATALOG_PATH,
    workers: resolveWorkers(optionalWholeNumber(args, 'workers')),
    repeat: optionalWholeNumber(args, 'repeat'),
    narrow: args.flags.get('narrow') === true,
    version: stringOption(args, 'version') ?? null,
    out: out === undefined ? join(PROJECT_ROOT, DEFAULT_RELEASE_FOLDER) : isAbsolute(out) ? out : resolve(out),
    keep: listOption(args, 'keep'),
    push,
    spec: referenceSpec(args, selectionSpecOption(args), candidates),
    mineAll: args.flags.get('all') === true,
    margin: marginOption(args),
    candidates,
    changedSince,
    // The repositories are chosen later (--repo, the reference's, the TUI's): the flow checks them against these.
    datedAgainst: datedAgainstOption(args, changedSince, undefined),
  };
}

async function runHeadless(
  session: CurateSession,
  repositories: readonly string[],
  json: boolean,
  io: CommandIO,
  records: string | null,
): Promise<number> {
  let board = emptyBoard(repositories);
  const onEvent = (event: FlowEvent): void => {
    board = foldFlowEvent(board, event, Date.now());
    if (json) {
      io.out(`${JSON.stringify(event)}\n`);
      return;
    }
    const line = headlessLine(event, session.settings.progressIntervalMs);
    if (line !== null) io.out(`${line}\n`);
  };
  const version = session.settings.version ?? DEFAULT_RELEASE_VERSION;
  const result = await session.run(repositories, FLOW_STAGES, onEvent, undefined, version);
  if (!json) io.out(headlessSummary(board, Date.now()));
  if (!result.ok) return 1;
  if (records !== null) {
    // After the flow, from the catalog it left: the same bytes as `repocod record` on that catalog.
    const written = formatWrittenRecords(
      await writeRecords(session.catalog, repositories, records, {
        manifest: session.settings.manifest,
        changedSince: session.settings.changedSince,
      }),
    );
    if (json) io.err(written);
    else
      io.out(
        `records\n${written
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => `  ${line}\n`)
          .join('')}`,
      );
  }
  return 0;
}
