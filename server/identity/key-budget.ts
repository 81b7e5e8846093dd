/**
 * A per-key budget over a sliding window (issue 21, item 5: face frames per client address per
 * minute): `spend(key, cost, now)` records the cost when it fits and returns 0, or returns the
 * milliseconds until it would fit without recording anything. In memory, per process: it guards
 * this process's face engine.
 */
export class KeyBudget {
  private readonly spent = new Map<string, { at: number; cost: number }[]>();

  constructor(
    readonly max: number,
    readonly windowMs: number,
  ) {}

  spend(key: string, cost: number, now: number): number {
    const since = now - this.windowMs;
    const entries = (this.spent.get(key) ?? []).filter((e) => e.at > since);
    let total = entries.reduce((sum, e) => sum + e.cost, 0);
    if (total + cost > this.max && total > 0) {
      // Wait until the oldest entries have left enough room.
      for (const e of entries) {
        total -= e.cost;
        if (total + cost <= this.max) return Math.max(1, e.at + this.windowMs - now);
      }
      return this.windowMs;
    }
    entries.push({ at: now, cost });
    this.spent.set(key, entries);
    if (this.spent.size > 10_000) this.prune(now);
    return 0;
  }

  private prune(now: number): void {
    for (const [key, entries] of this.spent)
      if (!entries.some((e) => e.at > now - this.windowMs)) this.spent.delete(key);
  }
}
