import { stableJson } from '@repocod/runner';
import type { ManifestEntry, PreparedRepository, Worktree } from '@repocod/runner';

/**
 * A worker's prepared repositories: each is prepared (checkout, environment, one worktree per job it
 * may run at once) the first time a job of it arrives, once however many of its jobs arrive together;
 * a preparation that failed is tried again by the next job. Worktrees are lent to one job at a time.
 */
export class RepositoryPool {
  private readonly prepared = new Map<string, Promise<PreparedRepository>>();
  private readonly free = new Map<PreparedRepository, Worktree[]>();
  private readonly waiting = new Map<PreparedRepository, ((worktree: Worktree) => void)[]>();

  constructor(private readonly prepare: (entry: ManifestEntry) => Promise<PreparedRepository>) {}

  /** The repository prepared for this entry; `again` prepares it afresh (its folder may have changed). */
  async repository(entry: ManifestEntry, again = false): Promise<PreparedRepository> {
    const key = stableJson(entry);
    if (again) this.prepared.delete(key);
    let pending = this.prepared.get(key);
    if (pending === undefined) {
      pending = this.prepare(entry);
      this.prepared.set(key, pending);
      pending.then(
        (repository) => this.free.set(repository, [...repository.worktrees]),
        () => this.prepared.delete(key),
      );
    }
    const repository = await pending;
    if (!this.free.has(repository)) this.free.set(repository, [...repository.worktrees]);
    return repository;
  }

  /** Runs `work` in a worktree of the repository of its own, waiting for one to be free. */
  async withWorktree<T>(repository: PreparedRepository, work: (worktree: Worktree) => Promise<T>): Promise<T> {
    const worktree = await this.lease(repository);
    try {
      return await work(worktree);
    } finally {
      this.release(repository, worktree);
    }
  }

  private lease(repository: PreparedRepository): Promise<Worktree> {
    const free = this.free.get(repository) ?? [];
    const worktree = free.shift();
    if (worktree !== undefined) return Promise.resolve(worktree);
    return new Promise((resolve) => this.waiting.set(repository, [...(this.waiting.get(repository) ?? []), resolve]));
  }

  private release(repository: PreparedRepository, worktree: Worktree): void {
    const next = this.waiting.get(repository)?.shift();
    if (next !== undefined) next(worktree);
    else this.free.get(repository)?.push(worktree);
  }
}
