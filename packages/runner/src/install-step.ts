/**
 * One step of a recipe's `install` list. Two kinds:
 *
 * - a resolved install, `{pip: [arguments]}`: what to install, in pip's words (`-r requirements.txt`,
 *   `--editable ".[test]"`, `pytest`, a hand pin `"click<8.2"`). The runner runs it with the
 *   environment's installer and decides the versions: `uv pip install --exclude-newer <date>` resolves
 *   every unpinned requirement to the newest release uploaded before the resolution date (see
 *   resolutionDate), so a recipe names the project and its extras and the date does the pinning.
 * - a shell command (a plain string), run as written with `bash -e -c`, for what is not an install
 *   (`cd sub && SKIP_NPM=1 ...`). It sees UV_EXCLUDE_NEWER, so a `uv pip` inside it keeps the date; a
 *   `python -m pip` inside it does not, which is why installs belong in resolved steps.
 */
export type InstallStep = string | ResolvedInstall;

export interface ResolvedInstall {
  /** Arguments of `pip install`, one per item: requirements, `-r FILE`, `--editable PATH`, options. */
  readonly pip: readonly string[];
}

export function isResolvedInstall(step: InstallStep): step is ResolvedInstall {
  return typeof step !== 'string';
}

/** The step as a person reads it in a log or an error: the shell text, or `pip install <arguments>`. */
export function describeInstallStep(step: InstallStep): string {
  return isResolvedInstall(step) ? `pip install ${step.pip.map(shellWord).join(' ')}` : step;
}

/** Arguments quoted only where a shell would split or expand them, so a logged command can be pasted. */
function shellWord(argument: string): string {
  return /^[\w@%+=:,./-]+$/.test(argument) ? argument : `'${argument.replaceAll("'", "'\\''")}'`;
}
