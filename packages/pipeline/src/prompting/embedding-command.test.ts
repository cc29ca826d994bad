import { resolve } from 'node:path';
import { RepocodError } from '@repocod/core';
import { describe, expect, it } from 'vitest';
import { EmbeddingCommand } from './embedding-command.js';

const HASHING_EMBEDDER = resolve(new URL('../testing/hashing-embedder.py', import.meta.url).pathname);

async function failure(command: string, texts: readonly string[]): Promise<RepocodError> {
  try {
    await new EmbeddingCommand(command).embed(texts);
  } catch (error) {
    if (error instanceof RepocodError) return error;
    throw error;
  }
  throw new Error('expected the command to fail');
}

describe('EmbeddingCommand', () => {
  it("embeds each text once, in order, with the command's own vectors", async () => {
    const embedder = new EmbeddingCommand(`python3 ${HASHING_EMBEDDER}`);
    const [area, again, other] = await embedder.embed(['def area(): width', 'def area(): width', 'return height']);
    expect(area).toHaveLength(256);
    expect(again).toBe(area);
    expect(other).not.toEqual(area);
    await embedder.embed(['return height', 'def perimeter(): pass']);
    expect([embedder.runs, embedder.texts]).toEqual([2, 3]);
    embedder.forget();
    await embedder.embed(['return height']);
    expect([embedder.runs, embedder.texts]).toEqual([3, 4]);
  });

  it('names the command and what is wrong with its run or its output', async () => {
    const failed = await failure(`echo 'no model here' >&2; exit 3`, ['a']);
    expect(failed.code).toBe('embedding-failed');
    expect(failed.message).toContain('exited with status 3 (no model here)');
    expect((await failure('echo "[1, 2]"', ['a', 'b'])).message).toContain('printed 1 line(s) for 2 text(s)');
    expect((await failure(`printf '[1, 2]\\n{"vector": [1]}\\n'`, ['a', 'b'])).message).toContain(
      'output line 2 is not a JSON array of numbers: {"vector": [1]}',
    );
    expect((await failure(`printf '[1, 2]\\n[1, 2, 3]\\n'`, ['a', 'b'])).message).toContain(
      'output line 2 has 3 dimensions, earlier embeddings 2',
    );
    expect((await failure('exit 0', ['a'])).message).toMatch(/^--embed-command "exit 0": printed 0 line/);
  });
});
