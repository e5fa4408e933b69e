// The last events of a run (harness/sim/), kept cheaply and printed with a violation.

export class Trace {
  private readonly at: number[];
  private readonly text: (string | (() => string))[];
  private next = 0;
  private count = 0;

  constructor(private readonly size = 80) {
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

  /** The last `n` events, oldest first, one a line: `  12.345s  text`. */
  lines(n = this.size): string[] {
    const k = Math.min(n, this.count, this.size);
    const out: string[] = [];
    for (let i = k; i > 0; i--) {
      const j = (this.next - i + this.size) % this.size;
      const t = this.text[j] as string | (() => string);
      out.push(`  ${((this.at[j] as number) / 1000).toFixed(3).padStart(8)}s  ${typeof t === 'function' ? t() : t}`);
    }
    return out;
  }
}
