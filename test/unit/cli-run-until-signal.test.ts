import { EventEmitter } from 'node:events';
import { describe, expect, it, jest } from '@jest/globals';
import { runUntilSignal } from '../../src/cli/run-until-signal.js';
import { silentLogger } from '../support/logger.js';

function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((ok) => {
    resolve = ok;
  });
  return { promise, resolve };
}

/** Lets pending promise callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('runUntilSignal', () => {
  it.each(['SIGTERM', 'SIGINT'])('calls stop() once on %s, however many signals follow, and resolves after it', async (signal) => {
    const signals = new EventEmitter();
    const stopping = deferred();
    const stop = jest.fn(() => stopping.promise);
    let finished = false;

    const running = runUntilSignal(() => Promise.resolve({ stop }), silentLogger(), signals).then(() => {
      finished = true;
    });
    await settle();
    expect(stop).not.toHaveBeenCalled();

    signals.emit(signal, signal);
    signals.emit('SIGINT', 'SIGINT');
    signals.emit('SIGTERM', 'SIGTERM');
    await settle();
    expect(stop).toHaveBeenCalledTimes(1);
    expect(finished).toBe(false);

    stopping.resolve();
    await running;
    expect(finished).toBe(true);
    expect(signals.listenerCount('SIGTERM') + signals.listenerCount('SIGINT')).toBe(0);
  });

  it('stops right after starting when the signal came during start-up', async () => {
    const signals = new EventEmitter();
    const started = deferred<{ stop: () => Promise<void> }>();
    const stop = jest.fn(() => Promise.resolve());

    const running = runUntilSignal(() => started.promise, silentLogger(), signals);
    signals.emit('SIGTERM', 'SIGTERM');
    await settle();
    expect(stop).not.toHaveBeenCalled();

    started.resolve({ stop });
    await running;
    expect(stop).toHaveBeenCalledTimes(1);
  });

  it('rejects with the error of a failed start or stop, and leaves no listeners behind', async () => {
    const signals = new EventEmitter();
    const failedStop = runUntilSignal(
      () => Promise.resolve({ stop: () => Promise.reject(new Error('pool did not drain')) }),
      silentLogger(),
      signals,
    );
    await settle();
    signals.emit('SIGTERM', 'SIGTERM');
    await expect(failedStop).rejects.toThrow('pool did not drain');

    await expect(runUntilSignal(() => Promise.reject(new Error('port in use')), silentLogger(), signals)).rejects.toThrow(
      'port in use',
    );
    expect(signals.listenerCount('SIGTERM') + signals.listenerCount('SIGINT')).toBe(0);
  });
});
