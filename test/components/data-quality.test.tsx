// @vitest-environment happy-dom
/** The feed lint's checks as the Data quality screen lists them: which the filters let through, and in what order. */
import { describe, expect, it } from 'vitest';
import type { LintReport } from '../../common/api-types';
import { shownFindings } from '../../src-renderer/src/screens/DataQuality';

const finding = (
  rule: string,
  count: number,
  ids: string[] = [],
  sample?: string[],
): LintReport['findings'][number] => ({
  rule,
  title: `Title of ${rule}`,
  why: 'why',
  count,
  examples: ids.map((id) => ({ dataset: 'Skus', id, detail: `detail of ${id}`, ...(sample ? { sample } : {}) })),
});
const rules = (list: LintReport['findings']) => list.map((f) => f.rule);
const all = [finding('a', 0), finding('b', 3, ['SKU-1']), finding('c', 9, ['LOC-9'], ['S-42']), finding('d', 1)];
const none = { onlyFound: false, mostFirst: false, text: '' };

describe('the checks shown', () => {
  it('lists every check in its order, or only those that found something', () => {
    expect(rules(shownFindings(all, none))).toEqual(['a', 'b', 'c', 'd']);
    expect(rules(shownFindings(all, { ...none, onlyFound: true }))).toEqual(['b', 'c', 'd']);
  });

  it('puts the most found first when asked', () => {
    expect(rules(shownFindings(all, { ...none, mostFirst: true }))).toEqual(['c', 'b', 'd', 'a']);
  });

  it("finds the text in a check's rule, title, examples and their samples, whatever its case and spaces", () => {
    expect(rules(shownFindings(all, { ...none, text: '  sku-1 ' }))).toEqual(['b']);
    expect(rules(shownFindings(all, { ...none, text: 's-42' }))).toEqual(['c']);
    expect(rules(shownFindings(all, { ...none, text: 'TITLE OF D' }))).toEqual(['d']);
    expect(rules(shownFindings(all, { ...none, text: 'nowhere' }))).toEqual([]);
  });
});
