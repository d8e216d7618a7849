/**
 * A progress bar on a terminal's standard error that starts with the first report, so a command refused before its
 * work begins prints its reason alone; off a terminal (or quiet) it is not drawn and the caller logs lines instead.
 */
import cliProgress from 'cli-progress';

export interface ProgressBar<P extends object> {
  /** `done` of `total`, with the values the format names besides the bar's own. */
  update(done: number, total: number, payload?: P): void;
  stop(): void;
}

export function progressBar<P extends object = object>(format: string, shown: boolean): ProgressBar<P> | undefined {
  if (!shown) return undefined;
  const bar = new cliProgress.SingleBar({ format, hideCursor: true }, cliProgress.Presets.shades_classic);
  let started = false;
  return {
    update(done, total, payload) {
      if (!started) bar.start(total, 0, payload);
      started = true;
      bar.update(done, payload);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
