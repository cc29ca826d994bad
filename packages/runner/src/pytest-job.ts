import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { networkIsolation } from './network-isolation.js';
import { killProcessGroup, trackProcessGroup } from './process-groups.js';
import { pytestReadsArgsFile } from './pytest-args-file.js';
import { parseReportLog, resultsFor, withConftestLoadError } from './pytest-report.js';
import type { TestResult } from './test-outcome.js';
import { HARNESS_ENV } from './harness-protocol.js';
import { EXIT_GRACE_SECONDS, FINISH_POLL_MS, reportLogFinished } from './session-finish-watch.js';

/** How a run ended, kept apart from what the tests did. */
export type RunStatus = 'ok' | 'collection-error' | 'timeout' | 'crashed' | 'infra-error';

export interface PytestRun {
  readonly status: RunStatus;
  readonly results: readonly TestResult[];
  readonly exitCode: number | null;
  readonly durationSeconds: number;
  /** pytest's console output (the last 64 KiB), for people; results never come from it. */
  readonly log: string;
  /** Whether the tests ran without network, and why not when they did not. */
  readonly network: string;
  /** What a harness plugin wrote to $REPOCOD_ARTIFACT_FILE (also after a timeout or crash), else null. */
  readonly artifact: string | null;
  /** Files or classes that did not collect, with pytest's message (not stored: the results say it per test). */
  readonly collectionErrors?: readonly { readonly nodeId: string; readonly message: string }[];
}

/**
 * The runner's own pytest plugins (harness/*.py). `repocod_coverage` maps lines to tests with
 * coverage.py, started in every Python process of the run; `repocod_mutate` runs many mining
 * mutations in one process. Both read $REPOCOD_PLUGIN_INPUT and write $REPOCOD_ARTIFACT_FILE.
 * `repocod_collect` writes there the node ids the run collected.
 */
export type HarnessPlugin = 'repocod_coverage' | 'repocod_mutate' | 'repocod_collect';

export interface PytestInvocation {
  /** The environment's python. */
  readonly python: string;
  /** The working copy's folder of the Python project (worktree + package_root). */
  readonly projectDir: string;
  /** Node ids to run, or every test under the test roots. */
  readonly tests: readonly string[] | 'all';
  readonly testRoots: readonly string[];
  /** Paths pytest does not collect (`--ignore`): the files other shards of the suite run. */
  readonly ignore?: readonly string[];
  readonly pytestArgs: readonly string[];
  readonly deselect: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutSeconds: number;
  /** Arguments after the manifest's own (for example `--continue-on-collection-errors`). */
  readonly extraArgs?: readonly string[];
  readonly plugins?: readonly HarnessPlugin[];
  /** Written to a file named by $REPOCOD_PLUGIN_INPUT for the plugins to read. */
  readonly pluginInput?: string;
  /**
   * Seconds the process may live on after its session's end is in the report (default EXIT_GRACE_SECONDS; see
   * session-finish-watch.ts). Not used with coverage, whose data is written as the process exits.
   */
  readonly exitGraceSeconds?: number;
}

const LOG_LIMIT = 64 * 1024;

/** The runner's own pytest plugins (Python files shipped with this package). */
const HARNESS_DIR = fileURLToPath(new URL('../harness', import.meta.url));
/** Holds the sitecustomize.py that starts coverage.py before anything else in every Python process. */
const COVERAGE_BOOT_DIR = join(HARNESS_DIR, 'coverage_boot');

const EMPTY_REPORT = parseReportLog('');
/** None of the requested tests' files exist: nothing to start, every test is missing. */
const NOTHING_TO_RUN: SpawnOutcome = {
  exitCode: 5,
  timedOut: false,
  endedAfterFinish: false,
  spawnError: null,
  output: 'none of the requested test files exist\n',
};

/**
 * Runs pytest once, with structured results from pytest-reportlog. Node ids (and deselections) go
 * to pytest in an `@file`, on the command line only for a pytest older than 8.2 (pytestReadsArgsFile).
 * The environment is deterministic (TZ=UTC,
 * PYTHONHASHSEED=0, LC_ALL=C.UTF-8); the whole process group is killed at the timeout; the
 * working copy's own code comes first on the import path, ahead of an editable install of the main
 * checkout.
 */
export async function runPytest(invocation: PytestInvocation): Promise<PytestRun> {
  const scratch = mkdtempSync(join(tmpdir(), 'repocod-run-'));
  try {
    const reportFile = join(scratch, 'report.jsonl');
    const argsFile = join(scratch, 'args.txt');
    const selectFile = join(scratch, 'selected.txt');
    const artifactFile = join(scratch, 'artifact.jsonl');
    const env = testEnvironment(invocation);
    let paths: readonly string[] = invocation.testRoots;
    const plugins: string[] = [...(invocation.plugins ?? [])];
    const importFirst: string[] = [];
    if (invocation.tests !== 'all') {
      // pytest gets the files; the harness plugin keeps the listed ids (see harness/repocod_select.py).
      paths = [...new Set(invocation.tests.map((id) => id.split('::')[0] ?? id))].filter((file) =>
        existsSync(join(invocation.projectDir, file)),
      );
      writeFileSync(selectFile, `${invocation.tests.join('\n')}\n`);
      env[HARNESS_ENV.selectFile] = selectFile;
      plugins.unshift('repocod_select');
    }
    if (plugins.length > 0) importFirst.push(HARNESS_DIR);
    if (invocation.pluginInput !== undefined) {
      const inputFile = join(scratch, 'plugin-input.json');
      writeFileSync(inputFile, invocation.pluginInput);
      env[HARNESS_ENV.pluginInput] = inputFile;
    }
    env[HARNESS_ENV.artifactFile] = artifactFile;
    if (plugins.includes('repocod_coverage')) {
      const coverageDir = join(scratch, 'coverage');
      mkdirSync(coverageDir);
      importFirst.unshift(COVERAGE_BOOT_DIR);
      env[HARNESS_ENV.coverageDir] = coverageDir;
      // Only the working copy's own files are measured: the venv's packages would cost time for nothing.
      env[HARNESS_ENV.coverageInclude] = realpathSync(invocation.projectDir);
    }
    if (importFirst.length > 0)
      env.PYTHONPATH = [...importFirst, env.PYTHONPATH ?? ''].filter((part) => part !== '').join(delimiter);
    const plugin = plugins.flatMap((name) => ['-p', name]);
    const ignore = (invocation.ignore ?? []).map((path) => `--ignore=${path}`);
    const listed = [...invocation.deselect.map((id) => `--deselect=${id}`), ...ignore, ...paths];
    const viaFile = await pytestReadsArgsFile(invocation.python);
    if (viaFile) writeFileSync(argsFile, `${listed.join('\n')}\n`);
    const network = networkIsolation();
    const command = [
      ...(network.isolated ? network.prefix : []),
      invocation.python,
      '-m',
      'pytest',
      ...invocation.pytestArgs,
      ...(invocation.extraArgs ?? []),
      ...plugin,
      `--report-log=${reportFile}`,
      ...(viaFile ? [`@${argsFile}`] : listed),
    ];
    const started = performance.now();
    const exitGrace = plugins.includes('repocod_coverage')
      ? null
      : { reportFile, seconds: invocation.exitGraceSeconds ?? EXIT_GRACE_SECONDS };
    const outcome =
      paths.length === 0
        ? NOTHING_TO_RUN
        : await spawnWithTimeout(command, invocation.projectDir, env, invocation.timeoutSeconds, exitGrace);
    const durationSeconds = (performance.now() - started) / 1000;
    const logged = existsSync(reportFile) ? parseReportLog(readFileSync(reportFile, 'utf8')) : EMPTY_REPORT;
    const report = withConftestLoadError(logged, outcome.output, invocation.projectDir);
    const results = resultsFor(report, invocation.tests);
    // Ended by the runner after its session's end: the exit status is the one pytest reported.
    const exitCode = outcome.endedAfterFinish ? report.exitStatus : outcome.exitCode;
    let status: RunStatus;
    if (outcome.timedOut) status = 'timeout';
    else if (outcome.spawnError !== null) status = 'infra-error';
    // 2: interrupted by collection errors; 4: usage error, also what a conftest that fails to import gives.
    else if (report.collectionErrors.length > 0 || exitCode === 2 || exitCode === 4) status = 'collection-error';
    else if ((paths.length > 0 && !report.finished) || exitCode === 3) status = 'crashed';
    else status = 'ok';
    return {
      status,
      results,
      exitCode,
      durationSeconds,
      log: (outcome.spawnError === null ? '' : `${outcome.spawnError}\n`) + outcome.output,
      network: !network.isolated
        ? `not isolated: ${network.reason}`
        : network.loopback
          ? 'isolated (unshare --net, loopback only)'
          : `isolated (unshare --net); ${network.note ?? ''}`,
      artifact: existsSync(artifactFile) ? readFileSync(artifactFile, 'utf8') : null,
      collectionErrors: report.collectionErrors,
    };
  } finally {
    removeScratch(scratch);
  }
}

/**
 * The environment tests run in: the venv first on PATH, the working copy's project folder (and its
 * src/) first on the import path, and the deterministic settings.
 */
export function testEnvironment(
  invocation: Pick<PytestInvocation, 'python' | 'projectDir' | 'env'>,
): Record<string, string | undefined> {
  const venvBin = join(invocation.python, '..');
  const importRoots = [invocation.projectDir, join(invocation.projectDir, 'src')].filter((dir) => existsSync(dir));
  return {
    ...process.env,
    ...invocation.env,
    PATH: `${venvBin}${delimiter}${process.env.PATH ?? ''}`,
    VIRTUAL_ENV: join(venvBin, '..'),
    PYTHONPATH: [...importRoots, invocation.env.PYTHONPATH ?? ''].filter((part) => part !== '').join(delimiter),
    TZ: 'UTC',
    PYTHONHASHSEED: '0',
    LC_ALL: 'C.UTF-8',
    PYTHONDONTWRITEBYTECODE: '1',
  };
}

interface SpawnOutcome {
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  /** Ended by the runner because it had not exited a grace period after its session's end (exitCode then null). */
  readonly endedAfterFinish: boolean;
  readonly spawnError: string | null;
  readonly output: string;
}

/**
 * The run's results are read by now: a scratch folder that will not go (a process of another group
 * still writing into it) is left in the temporary folder rather than failing the run that made them.
 */
function removeScratch(scratch: string): void {
  try {
    rmSync(scratch, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  } catch {
    // Left for the system's temporary-folder cleanup.
  }
}

/**
 * Runs in a new process group and kills the whole group (pytest and anything it started) at the timeout, or
 * `exitGrace.seconds` after the report's last line is the session's end.
 */
function spawnWithTimeout(
  command: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  timeoutSeconds: number,
  exitGrace: { readonly reportFile: string; readonly seconds: number } | null,
): Promise<SpawnOutcome> {
  return new Promise((resolvePromise) => {
    const [file, ...args] = command;
    const child = spawn(file as string, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString('utf8')).slice(-LOG_LIMIT);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const group = child.pid === undefined ? null : trackProcessGroup(child.pid);
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) killProcessGroup(child.pid);
    }, timeoutSeconds * 1000);
    let finishedAt: number | null = null;
    let endedAfterFinish = false;
    const watch =
      exitGrace === null
        ? null
        : setInterval(() => {
            if (finishedAt === null) {
              if (reportLogFinished(exitGrace.reportFile)) finishedAt = performance.now();
            } else if (performance.now() - finishedAt >= exitGrace.seconds * 1000 && !endedAfterFinish) {
              endedAfterFinish = true;
              keep(
                Buffer.from(
                  `\nrepocod: pytest had reported its session's end ${exitGrace.seconds} s before and its process ` +
                    'had not exited (threads or processes a test left running); the runner ended it\n',
                ),
              );
              if (child.pid !== undefined) killProcessGroup(child.pid);
            }
          }, FINISH_POLL_MS);
    const stopWatching = (): void => {
      clearTimeout(timer);
      if (watch !== null) clearInterval(watch);
      group?.forget();
    };
    child.on('error', (error) => {
      stopWatching();
      resolvePromise({
        exitCode: null,
        timedOut,
        endedAfterFinish: false,
        spawnError: `cannot start ${file}: ${error.message}`,
        output,
      });
    });
    // What a test started and left running (a leaked multiprocessing pool, a Spark JVM) dies with the
    // run: it would eat the cores of the runs after it, hold the output pipes open (so 'close' would
    // wait for it) and write its coverage data into the scratch folder while that is removed.
    child.on('exit', () => {
      if (child.pid !== undefined) killProcessGroup(child.pid);
    });
    child.on('close', (code) => {
      stopWatching();
      resolvePromise({ exitCode: code, timedOut, endedAfterFinish, spawnError: null, output });
    });
  });
}
