// The last events of a run (harness/sim/), kept cheaply and printed with a violation.

export class Trace {
  private readonly at: number[];
  private readonly text: (string | (() => string))[];
  private next = 0;
  private count = 0;

  constructor(private readonly size = 4096) {
    this.at = new Array<number>(size).fill(0);
    this.text = new Array<string>(size).fill('');
  }

  /** Records an event; a function is formatted only if the trace is printed. */
  add(t: number, text: string | (() => string)): void {
    this.at[this.next] = t;
    this.text[this.next] = text;
    this.next = (this.next + 1) % this.size;
    this.count += 1;
  }

  /**
   * The last `n` events, oldest first, one a line (`  12.345s  text`); with `window`, the
   * last `n` of those in [from, to] whose text `keep` accepts.
   */
  lines(n: number, window?: { from: number; to: number; keep: (text: string) => boolean }): string[] {
    const out: string[] = [];
    for (let i = 1; i <= Math.min(this.count, this.size) && out.length < n; i++) {
      const j = (this.next - i + this.size) % this.size;
      const at = this.at[j] as number;
      if (window && at > window.to) continue;
      if (window && at < window.from) break;
      const t = this.text[j] as string | (() => string);
      const text = typeof t === 'function' ? t() : t;
      if (window && !window.keep(text)) continue;
      out.push(`  ${(at / 1000).toFixed(3).padStart(8)}s  ${text}`);
    }
    return out.reverse();
  }
}
