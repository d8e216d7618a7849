/**
 * The in-stock bits a replay keeps beside its sales ring (engine/recommend/in-stock-bits.ts): whatever is set or
 * cleared, they say of every slot what the ring says, and the days counted from them are those read from the ring.
 */
import { describe, expect, it } from 'vitest';
import { bitWords, countSlots, inStockBitsOf, setSlot, setSlots } from '../engine/recommend/in-stock-bits.js';
import { stockedDays, type EngineState } from '../engine/recommend/state.js';

/** A small deterministic generator (the same draws on every run). */
function draws(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

/** A ring of `cells` × `W` slots: a number (sold, 0 or sold out) on about `inStock` of them, NaN on the rest. */
function ring(cells: number, W: number, inStock: number, next: () => number): Float32Array {
  return Float32Array.from({ length: cells * W }, () =>
    next() < inStock ? [0, 2, -1][Math.floor(next() * 3)] : Number.NaN,
  );
}

const inStockOf = (bits: Uint32Array, words: number, c: number, slot: number) =>
  (bits[c * words + (slot >>> 5)] >>> (slot & 31)) & 1;

describe('in-stock bits', () => {
  for (const W of [1, 7, 31, 32, 33, 64, 112, 365]) {
    it(`follow the ring slot by slot as it is written, a window of ${W} days`, () => {
      const next = draws(W);
      const cells = 5;
      const sales = ring(cells, W, 0.6, next);
      const words = bitWords(W);
      const bits = inStockBitsOf(sales, W);
      expect(bits.length).toBe(cells * words);
      for (let step = 0; step < 200; step++) {
        const c = Math.floor(next() * cells);
        const from = Math.floor(next() * W);
        // Up to the whole ring, past its last slot going on from slot 0.
        const to = from + Math.floor(next() * (W + 1));
        const inStock = next() < 0.5;
        if (next() < 0.5 && from < W) {
          setSlot(bits, words, c, from, inStock);
          sales[c * W + from] = inStock ? 1 : Number.NaN;
        } else {
          setSlots(bits, W, c, from, to, inStock);
          for (let s = from; s < to; s++) sales[c * W + (s % W)] = inStock ? 0 : Number.NaN;
        }
        // Slot by slot, every cell's (a range ends within its own cell's words).
        let wrong = 0;
        for (let cell = 0; cell < cells; cell++)
          for (let slot = 0; slot < W; slot++) {
            const x = sales[cell * W + slot];
            if (inStockOf(bits, words, cell, slot) !== (x === x ? 1 : 0)) wrong++;
          }
        expect(wrong, `after step ${step}`).toBe(0);
        const a = Math.floor(next() * W);
        const b = a + Math.floor(next() * (W + 1));
        let n = 0;
        for (let s = a; s < b; s++) n += sales[c * W + (s % W)] === sales[c * W + (s % W)] ? 1 : 0;
        expect(countSlots(bits, W, c, a, b)).toBe(n);
      }
    });
  }

  it('count the same stocked days as the ring, wherever the window starts in it', () => {
    const next = draws(7);
    const W = 112;
    const cells = 12;
    for (const head of [0, 1, 31, 64, 100, 111]) {
      const sales = ring(cells, W, 0.5, next);
      // What stockedDays reads of a state: its window and ring.
      const state = { windowDays: W, windowHead: head, sales } as EngineState;
      const withBits = { ...state, inStockBits: inStockBitsOf(sales, W) };
      for (let c = 0; c < cells; c++)
        for (const [from, to] of [
          [0, W],
          [0, 28],
          [10, 90],
          [W - 5, W + 3],
          [50, 50],
        ])
          expect(stockedDays(withBits, c, from, to)).toBe(stockedDays(state, c, from, to));
    }
  });
});
