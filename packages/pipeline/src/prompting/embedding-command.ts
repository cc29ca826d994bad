import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { RepocodError } from '@repocod/core';

/**
 * An embedding model run as a command of the user's (`--embed-command`), for the dense setting. It is run with
 * `sh -c`, given one JSON line per text on its standard input (`{"text": "…"}`), and must print one JSON line per
 * text, in the same order: the text's embedding as an array of numbers. Texts already embedded are not sent again.
 */
export class EmbeddingCommand {
  private readonly vectors = new Map<string, readonly number[]>();
  private dimensions: number | null = null;
  /** How many times the command was run, and how many texts it embedded, for the summary. */
  runs = 0;
  texts = 0;

  constructor(readonly command: string) {}

  /** Drops the embeddings kept so far (a repository's, before the next one's), keeping the counts. */
  forget(): void {
    this.vectors.clear();
  }

  /** The embedding of each text, in order. */
  async embed(texts: readonly string[]): Promise<(readonly number[])[]> {
    const missing = [...new Set(texts.filter((text) => !this.vectors.has(text)))];
    if (missing.length > 0) {
      const found = await this.run(missing);
      missing.forEach((text, index) => {
        this.vectors.set(text, found[index] as number[]);
      });
    }
    return texts.map((text) => this.vectors.get(text) as readonly number[]);
  }

  private async run(texts: readonly string[]): Promise<number[][]> {
    this.runs++;
    this.texts += texts.length;
    const child = spawn('sh', ['-c', this.command], { stdio: ['pipe', 'pipe', 'pipe'] });
    const stderr: Buffer[] = [];
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    const exited = new Promise<number>((resolve, reject) => {
      child.on('error', (error) => reject(this.failure(`cannot be started (${error.message})`)));
      child.on('close', (code) => resolve(code ?? 1));
    });
    child.stdin.on('error', () => {
      // A command that exits without reading its input: its exit status says what went wrong.
    });
    child.stdin.end(texts.map((text) => `${JSON.stringify({ text })}\n`).join(''));
    // Read line by line as the command prints: the embeddings of a whole repository can be more text than one
    // string holds (plotly.py's 43,000 functions at 1,024 dimensions).
    const vectors: number[][] = [];
    let malformed: RepocodError | null = null;
    for await (const line of createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY })) {
      if (line.trim().length === 0 || malformed !== null) continue;
      try {
        vectors.push(this.vector(line, vectors.length + 1));
      } catch (error) {
        if (!(error instanceof RepocodError)) throw error;
        malformed = error;
      }
    }
    const status = await exited;
    if (status !== 0)
      throw this.failure(
        `exited with status ${status}${tail(Buffer.concat(stderr).toString('utf8'))}; run it by hand on one line ` +
          `like {"text": "def f(): ..."} to see why`,
      );
    if (malformed !== null) throw malformed;
    if (vectors.length !== texts.length)
      throw this.failure(`printed ${vectors.length} line(s) for ${texts.length} text(s); it must print one per text`);
    return vectors;
  }

  private vector(line: string, number: number): number[] {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      value = null;
    }
    if (!Array.isArray(value) || value.length === 0 || !value.every((x) => typeof x === 'number' && Number.isFinite(x)))
      throw this.failure(`output line ${number} is not a JSON array of numbers: ${line.slice(0, 80)}`);
    if (this.dimensions !== null && value.length !== this.dimensions)
      throw this.failure(
        `output line ${number} has ${value.length} dimensions, earlier embeddings ${this.dimensions}; one model must ` +
          `embed every text`,
      );
    this.dimensions = value.length;
    return value as number[];
  }

  private failure(what: string): RepocodError {
    return new RepocodError('embedding-failed', `--embed-command ${JSON.stringify(this.command)}: ${what}`);
  }
}

function tail(text: string): string {
  const last = text.trim().split('\n').slice(-3).join(' | ');
  return last.length === 0 ? '' : ` (${last.slice(0, 300)})`;
}
