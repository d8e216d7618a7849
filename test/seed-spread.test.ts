/** bench:truth's reading of a figure over seeds: its median, its worst either way, and the seeds it is asked for. */
import { describe, expect, it } from 'vitest';
import { median, pickedSeeds, worst } from './bench/seed-spread.js';

describe('a figure over seeds', () => {
  it('has the middle value as its median, the mean of the middle two for an even count', () => {
    expect(median([0.03, -0.01, 0.2])).toBe(0.03);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(() => median([])).toThrow(/no values/);
  });

  it('has the value farthest from 0 as its worst, its sign kept', () => {
    expect(worst([0.02, -0.09, 0.05])).toBe(-0.09);
    expect(worst([0.02, -0.01, 0.05])).toBe(0.05);
    expect(() => worst([])).toThrow(/no values/);
  });

  it('reads seeds as a list or a range, the fallback when unset, and refuses anything else by name', () => {
    expect(pickedSeeds(undefined, [1, 2, 3])).toEqual([1, 2, 3]);
    expect(pickedSeeds('2,5', [1])).toEqual([2, 5]);
    expect(pickedSeeds('1-4,7', [1])).toEqual([1, 2, 3, 4, 7]);
    expect(() => pickedSeeds('1,x', [1])).toThrow(/"x" is not a seed/);
    expect(() => pickedSeeds('0', [1])).toThrow(/"0" is not a seed/);
    expect(() => pickedSeeds('5-2', [1])).toThrow(/"5-2" is not a seed/);
  });
});
