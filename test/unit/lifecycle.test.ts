// The one lifecycle every process uses: start in order, stop what started in reverse —
// after a failed start, on stop during start, and on a signal.
import { describe, expect, it } from 'vitest';
import { Lifecycle, StartAbortedError, component, stopOnSignals } from '../../proto/runtime/lifecycle.js';

function recorder(): { log: string[]; part: (name: string, opts?: { failStart?: boolean; failStop?: boolean; gate?: Promise<void> }) => ReturnType<typeof component> } {
  const log: string[] = [];
  return {
    log,
    part: (name, opts = {}) =>
      component(
        name,
        async () => {
          log.push(`start ${name}`);
          await opts.gate;
          if (opts.failStart) throw new Error(`${name} refused`);
        },
        () => {
          log.push(`stop ${name}`);
          if (opts.failStop) throw new Error(`${name} stuck`);
        },
      ),
  };
}

describe('Lifecycle', () => {
  it('starts in order and stops in reverse, once', async () => {
    const { log, part } = recorder();
    const lc = new Lifecycle().add(part('a'), part('b'), part('c'));
    await lc.start();
    expect(lc.state).toBe('running');
    await Promise.all([lc.stop(), lc.stop()]);
    await lc.stop();
    expect(log).toEqual(['start a', 'start b', 'start c', 'stop c', 'stop b', 'stop a']);
    expect(lc.state).toBe('stopped');
  });

  it('on a failed start, stops only what started, in reverse, and rethrows the failure', async () => {
    for (const failing of ['a', 'b', 'c']) {
      const { log, part } = recorder();
      const lc = new Lifecycle().add(...['a', 'b', 'c'].map((n) => part(n, { failStart: n === failing })));
      await expect(lc.start()).rejects.toThrow(`${failing} refused`);
      const started = ['a', 'b', 'c'].slice(0, ['a', 'b', 'c'].indexOf(failing));
      expect(log).toEqual([...started, failing].map((n) => `start ${n}`).concat([...started].reverse().map((n) => `stop ${n}`)));
      expect(lc.state).toBe('stopped');
    }
  });

  it('runs beforeStart before each step, so a test can fail any step', async () => {
    const { log, part } = recorder();
    const lc = new Lifecycle({
      beforeStart: (name) => {
        if (name === 'b') throw new Error('injected at b');
      },
    }).add(part('a'), part('b'), part('c'));
    await expect(lc.start()).rejects.toThrow('injected at b');
    expect(log).toEqual(['start a', 'stop a']);
  });

  it('a stop during start lets the step finish, stops it too, and start rejects StartAbortedError', async () => {
    const { log, part } = recorder();
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const lc = new Lifecycle().add(part('a'), part('b', { gate }), part('c'));
    const starting = lc.start();
    while (!log.includes('start b')) await new Promise((r) => setImmediate(r));
    const stopping = lc.stop();
    open();
    await expect(starting).rejects.toBeInstanceOf(StartAbortedError);
    await stopping;
    expect(log).toEqual(['start a', 'start b', 'stop b', 'stop a']);
  });

  it('asks every part to stop even when one fails, then rejects with that failure', async () => {
    const { log, part } = recorder();
    const lc = new Lifecycle().add(part('a'), part('b', { failStop: true }), part('c'));
    await lc.start();
    await expect(lc.stop()).rejects.toThrow('b stuck');
    expect(log.slice(3)).toEqual(['stop c', 'stop b', 'stop a']);
  });

  it('refuses to add parts or start twice once started', async () => {
    const lc = new Lifecycle().add(component('a', () => undefined));
    await lc.start();
    expect(() => lc.add(component('b', () => undefined))).toThrow(/cannot add b once started/);
    await expect(lc.start()).rejects.toThrow(/start\(\) once/);
    await lc.stop();
  });
});

describe('stopOnSignals', () => {
  it('stops on the first signal (exit 0) and gives up on a second (exit 1)', async () => {
    const { log, part } = recorder();
    const lc = new Lifecycle().add(part('a'));
    await lc.start();
    const seen: string[] = [];
    const first = stopOnSignals(lc, { signals: ['SIGUSR2'], onSignal: (s, second) => seen.push(`${s}${second ? ' again' : ''}`) });
    process.emit('SIGUSR2', 'SIGUSR2');
    expect(await first.exitCode).toBe(0);
    expect(log).toEqual(['start a', 'stop a']);
    first.dispose();

    let release: () => void = () => undefined;
    const stuck = new Lifecycle().add(component('slow', () => undefined, () => new Promise<void>((r) => (release = r))));
    await stuck.start();
    const second = stopOnSignals(stuck, { signals: ['SIGUSR2'], onSignal: (s, again) => seen.push(`${s}${again ? ' again' : ''}`) });
    process.emit('SIGUSR2', 'SIGUSR2');
    process.emit('SIGUSR2', 'SIGUSR2');
    expect(await second.exitCode).toBe(1);
    second.dispose();
    release();
    expect(seen).toEqual(['SIGUSR2', 'SIGUSR2', 'SIGUSR2 again']);
  });

  it("with repeated: 'wait', a second signal is told but the stop runs to its end (exit 0)", async () => {
    let release: () => void = () => undefined;
    const stopped: string[] = [];
    const lc = new Lifecycle().add(
      component('first', () => undefined, () => stopped.push('first')),
      component('slow', () => undefined, () => new Promise<void>((r) => (release = r)).then(() => stopped.push('slow'))),
    );
    await lc.start();
    const seen: string[] = [];
    const s = stopOnSignals(lc, { signals: ['SIGUSR2'], repeated: 'wait', onSignal: (sig, again) => seen.push(`${sig}${again ? ' again' : ''}`) });
    let code: number | undefined;
    void s.exitCode.then((c) => (code = c));
    process.emit('SIGUSR2', 'SIGUSR2');
    process.emit('SIGUSR2', 'SIGUSR2');
    await new Promise((r) => setImmediate(r));
    expect(code).toBeUndefined(); // still stopping: the second signal did not end it
    release();
    expect(await s.exitCode).toBe(0);
    s.dispose();
    expect(stopped).toEqual(['slow', 'first']);
    expect(seen).toEqual(['SIGUSR2', 'SIGUSR2 again']);
  });

  it('exits 1 when stopping fails', async () => {
    const lc = new Lifecycle().add(component('a', () => undefined, () => Promise.reject(new Error('stuck'))));
    await lc.start();
    const errors: unknown[] = [];
    const s = stopOnSignals(lc, { signals: ['SIGUSR2'], onStopError: (err) => errors.push(err) });
    process.emit('SIGUSR2', 'SIGUSR2');
    expect(await s.exitCode).toBe(1);
    s.dispose();
    expect(String(errors[0])).toMatch(/stuck/);
  });
});

describe('Lifecycle: a long start', () => {
  it('is told through its abort signal when a stop comes, so it can end early', async () => {
    const log: string[] = [];
    const lc = new Lifecycle().add(
      component('a', () => undefined, () => log.push('stop a')),
      component(
        'waits',
        (aborted) =>
          new Promise<void>((resolve) => {
            log.push('waiting');
            aborted.addEventListener('abort', () => {
              log.push('aborted');
              resolve();
            });
          }),
        () => log.push('stop waits'),
      ),
    );
    const starting = lc.start();
    while (!log.includes('waiting')) await new Promise((r) => setImmediate(r));
    await lc.stop();
    await expect(starting).rejects.toBeInstanceOf(StartAbortedError);
    expect(log).toEqual(['waiting', 'aborted', 'stop waits', 'stop a']);
  });
});
