// One cache tier's entries in insertion order, which is expiry order (one TTL per tier):
// every expired entry is at the head. Used by the static-object cache's entries
// (./cache-entries.ts); entries removed early stay as dead records until popped or compacted.

/** One tier's entries in insertion order, which is expiry order (one TTL per tier). */
export class ExpiryQueue<E extends { readonly expiresAt: number; live: boolean }> {
  private items: (E | undefined)[] = [];
  private head = 0;

  push(entry: E): void {
    this.items.push(entry);
  }

  /** Pops every record due at `now`, calling `drop` for the live ones. */
  popDue(now: number, drop: (entry: E) => void): void {
    while (this.head < this.items.length) {
      const entry = this.items[this.head] as E;
      if (entry.expiresAt > now) break;
      this.items[this.head] = undefined;
      this.head += 1;
      if (entry.live) drop(entry);
    }
    if (this.head === this.items.length) this.reset();
    else if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }

  /** Drops dead records once they outnumber the live ones (plus slack). */
  compact(live: number): void {
    if (this.items.length - this.head <= 2 * live + 1024) return;
    this.items = this.items.slice(this.head).filter((e) => e?.live === true);
    this.head = 0;
  }

  reset(): void {
    this.items = [];
    this.head = 0;
  }

  get length(): number {
    return this.items.length - this.head;
  }
}
