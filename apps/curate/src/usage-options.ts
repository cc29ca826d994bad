/**
 * A command's options, read from its usage: the synopsis (the `usage:` lines, up to the first blank
 * line) is the one place a command declares them, and the parser, the unknown-option error, `--help`
 * and docs/cli.md all follow from it. The rules, stated once:
 *
 * - Every `--name` in the synopsis is an option of the command.
 * - It takes a value when the next word names one: anything but `<…>` (a positional), a bracket or
 *   parenthesis, `|` or another option. `[--db FILE]`, `[--margin 20%|N]`, `[--tracebacks native|pytest]`
 *   take values; `[--yes]`, `[--all | --margin …]`'s `--all` and `--lite <repository>...` do not.
 * - An option named twice keeps its value: `[same options but --only]` does not make `--only` a flag.
 */

export type OptionKind = 'value' | 'flag';

export function synopsisOf(usage: string): string {
  const blank = usage.search(/\n\s*\n/);
  return blank < 0 ? usage : usage.slice(0, blank);
}

export function usageOptions(usage: string): ReadonlyMap<string, OptionKind> {
  const options = new Map<string, OptionKind>();
  const words = synopsisOf(usage)
    .split(/\s+/)
    .flatMap((word) => word.split(/(?=[[\]()|])|(?<=[[\]()|])/))
    .filter((word) => word !== '');
  for (const [index, word] of words.entries()) {
    const name = /^--([a-z][a-z0-9-]*)$/.exec(word)?.[1];
    if (name === undefined) continue;
    const next = words[index + 1] ?? '';
    const kind: OptionKind = next === '' || /^[-<[\]()|]/.test(next) ? 'flag' : 'value';
    if (options.get(name) !== 'value') options.set(name, kind);
  }
  return options;
}
