/**
 * What a message between threads hands over rather than copies. Its own module: the worker's entry and the code
 * that starts it both use it, and sharing in-worker.ts itself would move that code (and the worker's address,
 * taken relative to it) into a shared chunk of the app's build.
 */
import type { Alloc } from '../recommend/state.js';

/** Every buffer under a value, once each: handed over to the other thread rather than copied. */
export function buffersOf(value: unknown, out = new Set<ArrayBuffer>()): ArrayBuffer[] {
  if (ArrayBuffer.isView(value)) {
    if (value.buffer instanceof ArrayBuffer) out.add(value.buffer);
  } else if (value && typeof value === 'object') {
    for (const v of Object.values(value)) buffersOf(v, out);
  }
  return [...out];
}

type View = { buffer: ArrayBufferLike; byteLength: number; constructor: new (b: SharedArrayBuffer) => unknown };

/** Typed arrays made in shared memory: a replay's threads read them where they are, none copies them. */
export const sharedAlloc: Alloc = (make, n) => {
  const probe = make(0);
  const Ctor = probe.constructor as new (buffer: SharedArrayBuffer) => typeof probe;
  return new Ctor(new SharedArrayBuffer(n * probe.BYTES_PER_ELEMENT));
};

/**
 * A copy of a value whose typed arrays sit in shared memory: posted to a thread, they are shared, neither copied
 * nor taken away, so one copy serves every thread that reads it (the runs of a sweep).
 */
export function sharedCopy<T>(value: T): T {
  if (ArrayBuffer.isView(value)) {
    if (value.buffer instanceof SharedArrayBuffer) return value;
    const view = value as unknown as View & ArrayLike<number>;
    const shared = new SharedArrayBuffer(view.byteLength);
    const out = new view.constructor(shared) as { set(a: ArrayLike<number>): void };
    out.set(view);
    return out as T;
  }
  if (Array.isArray(value)) return value.map(sharedCopy) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, sharedCopy(v)])) as T;
  return value;
}

/**
 * A value to post to another thread or process: a typed array that views part of a larger buffer (a slice of the
 * replay's arrays) becomes a copy of that part, since posting a view copies its whole buffer. Shared memory stays
 * shared.
 */
export function compactCopy<T>(value: T): T {
  if (ArrayBuffer.isView(value)) {
    const view = value as unknown as { buffer: ArrayBufferLike; byteLength: number; slice(): T };
    return view.buffer instanceof SharedArrayBuffer || view.byteLength === view.buffer.byteLength
      ? value
      : view.slice();
  }
  if (Array.isArray(value)) return value.map(compactCopy) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, compactCopy(v)])) as T;
  return value;
}
