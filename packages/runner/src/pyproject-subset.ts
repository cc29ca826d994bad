/**
 * The part of TOML that a pyproject.toml's dependency lists are written in, read without a TOML library: table
 * headers (`[project]`, `[dependency-groups]`), `key = value` pairs whose value is a string, a list of strings and
 * inline tables (`{include-group = "test"}`) over as many lines as it takes, and comments. Any other value is kept
 * as its raw text (it is not needed here), and a line it does not understand is passed over: what a recipe is
 * derived from must be read right, the rest of the file may be anything.
 */

/** A value as read: a string, a list, an inline table, or the raw text of anything else. */
export type TomlValue =
  | string
  | readonly TomlValue[]
  | { readonly [key: string]: TomlValue }
  | { readonly raw: string };

/** Tables by name (`project.optional-dependencies`; `` for the top), each its keys in order. */
export type TomlTables = ReadonlyMap<string, ReadonlyMap<string, TomlValue>>;

export function readTomlSubset(text: string): TomlTables {
  const tables = new Map<string, Map<string, TomlValue>>([['', new Map()]]);
  let current = tables.get('') as Map<string, TomlValue>;
  const reader = new Reader(text);
  while (!reader.done()) {
    reader.skipBlank();
    if (reader.done()) break;
    if (reader.peek() === '[') {
      const header = reader.line().trim();
      const match = /^\[\s*([^\][]+?)\s*\]\s*(#.*)?$/.exec(header);
      const name = match?.[1] === undefined ? null : unquoteKey(match[1]);
      if (name === null) {
        current = new Map();
        continue;
      }
      current = tables.get(name) ?? new Map();
      tables.set(name, current);
      continue;
    }
    const key = reader.key();
    if (key === null || !reader.eat('=')) {
      reader.line();
      continue;
    }
    current.set(key, reader.value());
  }
  return tables;
}

/** `"a.b"` and `a . b` as `a.b`. */
function unquoteKey(key: string): string {
  return key
    .split('.')
    .map((part) => part.trim().replace(/^"(.*)"$/, '$1'))
    .join('.');
}

class Reader {
  private at = 0;
  constructor(private readonly text: string) {}

  done(): boolean {
    return this.at >= this.text.length;
  }

  peek(): string {
    return this.text[this.at] ?? '';
  }

  /** Whitespace, newlines and comments. */
  skipBlank(): void {
    while (!this.done()) {
      const char = this.peek();
      if (char === '#') this.line();
      else if (/\s/.test(char)) this.at += 1;
      else return;
    }
  }

  /** The rest of the line, its newline consumed. */
  line(): string {
    const end = this.text.indexOf('\n', this.at);
    const stop = end < 0 ? this.text.length : end;
    const line = this.text.slice(this.at, stop);
    this.at = stop + 1;
    return line;
  }

  eat(char: string): boolean {
    this.skipSpaces();
    if (this.peek() !== char) return false;
    this.at += 1;
    return true;
  }

  key(): string | null {
    this.skipSpaces();
    const match = /^(?:"[^"\n]*"|[A-Za-z0-9_.\- ]+?)(?=\s*=)/.exec(this.text.slice(this.at));
    if (match === null) return null;
    this.at += match[0].length;
    return unquoteKey(match[0]);
  }

  value(): TomlValue {
    this.skipSpaces();
    const char = this.peek();
    if (char === '"' || char === "'") return this.string();
    if (char === '[') return this.list();
    if (char === '{') return this.inlineTable();
    const raw = /^[^,\]}\n#]*/.exec(this.text.slice(this.at))?.[0] ?? '';
    this.at += raw.length;
    return { raw: raw.trim() };
  }

  private string(): string {
    const quote = this.peek();
    if (this.text.startsWith(quote.repeat(3), this.at)) {
      const end = this.text.indexOf(quote.repeat(3), this.at + 3);
      const stop = end < 0 ? this.text.length : end;
      const value = this.text.slice(this.at + 3, stop);
      this.at = stop + 3;
      return value.replace(/^\n/, '');
    }
    let value = '';
    this.at += 1;
    while (!this.done() && this.peek() !== quote && this.peek() !== '\n') {
      if (quote === '"' && this.peek() === '\\') {
        this.at += 1;
        const escaped = this.peek();
        value += escaped === 'n' ? '\n' : escaped === 't' ? '\t' : escaped;
      } else {
        value += this.peek();
      }
      this.at += 1;
    }
    this.at += 1;
    return value;
  }

  private list(): TomlValue[] {
    this.at += 1;
    const items: TomlValue[] = [];
    for (;;) {
      this.skipBlank();
      if (this.done()) return items;
      if (this.peek() === ']') {
        this.at += 1;
        return items;
      }
      items.push(this.value());
      this.skipBlank();
      if (this.peek() === ',') this.at += 1;
    }
  }

  private inlineTable(): { [key: string]: TomlValue } {
    this.at += 1;
    const table: { [key: string]: TomlValue } = {};
    for (;;) {
      this.skipSpaces();
      if (this.done() || this.peek() === '}') {
        this.at += 1;
        return table;
      }
      const key = this.key();
      if (key === null || !this.eat('=')) {
        // Not a table this reader knows: skip to its end.
        const end = this.text.indexOf('}', this.at);
        this.at = end < 0 ? this.text.length : end + 1;
        return table;
      }
      table[key] = this.value();
      this.skipSpaces();
      if (this.peek() === ',') this.at += 1;
    }
  }

  private skipSpaces(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.at += 1;
  }
}
