/** Microseconds since the epoch. Injected so tests can move time (abandoned loads, refresh ages). */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now() * 1000;

/** Write stamps that never repeat or go backwards, even if the wall clock does. */
export function monotonic(clock: Clock): Clock {
  let last = 0;
  return () => {
    const now = clock();
    last = now > last ? now : last + 1;
    return last;
  };
}
