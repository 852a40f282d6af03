/**
 * Ctrl-C on `tcs sweep`: the first SIGINT stops waiting for trials (the sweep then ends its workers
 * and writes what finished); a second one ends the process at once, as Node would have. A terminal
 * signals the local workers too; they stop their own runs, and the pool does not replace them.
 */
export interface SweepInterrupt {
  /** Settles with 'done' or the run's error, or with 'interrupted' at the first Ctrl-C, whichever comes first. */
  race<T>(work: Promise<T>): Promise<{ done: T } | 'interrupted'>;
  readonly requested: boolean;
  dispose(): void;
}

export function sweepInterrupt(): SweepInterrupt {
  let requested = false;
  let heard: () => void = () => {};
  const interrupted = new Promise<'interrupted'>((resolve) => (heard = () => resolve('interrupted')));
  const onSigint = () => {
    if (requested) process.exit(130);
    requested = true;
    process.stderr.write(
      'tcs sweep: stopping (Ctrl-C): the trials done so far are written; Ctrl-C again to stop at once\n',
    );
    heard();
  };
  process.on('SIGINT', onSigint);
  return {
    race<T>(work: Promise<T>) {
      // A run given up on may still fail later (its executor closed under it): that is not news.
      work.catch(() => {});
      return Promise.race([work.then((done) => ({ done })), interrupted]);
    },
    get requested() {
      return requested;
    },
    dispose: () => process.off('SIGINT', onSigint),
  };
}
