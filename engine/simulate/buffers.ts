/**
 * What a message between threads hands over rather than copies. Its own module: the worker's entry and the code
 * that starts it both use it, and sharing in-worker.ts itself would move that code (and the worker's address,
 * taken relative to it) into a shared chunk of the app's build.
 */
/** Every buffer under a value, once each: handed over to the other thread rather than copied. */
export function buffersOf(value: unknown, out = new Set<ArrayBuffer>()): ArrayBuffer[] {
  if (ArrayBuffer.isView(value)) {
    if (value.buffer instanceof ArrayBuffer) out.add(value.buffer);
  } else if (value && typeof value === 'object') {
    for (const v of Object.values(value)) buffersOf(v, out);
  }
  return [...out];
}
