/**
 * The order the test files start in: longest first, so that the two workers end together rather than one of them
 * starting a long file when the other is done. How long a file takes: the estimates below for the long ones
 * (seconds, measured on a 2-core machine; only their order matters), else vitest's own timing of its last run here.
 * vitest alone would go by that timing, which a run of one test (`-t`) resets for its file, and which a fresh clone
 * has none of (it then goes by size, and the longest file in time is one of the smallest).
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const ESTIMATES: Record<string, number> = {
  'test/e2e/web.test.ts': 106,
  'test/backtest-truth.test.ts': 45,
  'test/backtest-service.test.ts': 37,
  'test/durability.test.ts': 28,
  'test/lint.test.ts': 27,
  'test/sweep.test.ts': 26,
  'test/cli.test.ts': 23,
  'test/hostile-input.test.ts': 20,
  'test/samples.test.ts': 16,
  'test/csv-load.test.ts': 16,
  'test/concurrency.test.ts': 14,
  'test/online-fulfilment.test.ts': 13,
  'test/backtest-drill.test.ts': 12,
  'test/recommend-service.test.ts': 11,
  'test/serve.test.ts': 11,
  'test/ingest.test.ts': 10,
  'test/workspace.test.ts': 10,
  'test/api.test.ts': 10,
};

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const expected = (spec: TestSpecification): number | undefined => {
      const file = relative(root, spec.moduleId).replaceAll('\\', '/');
      if (file in ESTIMATES) return ESTIMATES[file] * 1000;
      return this.ctx.cache.getFileTestResults(`${spec.project.name}:${file}`)?.duration;
    };
    // vitest's own order (its timings, else size) among the files neither it nor the estimates know.
    const base = await super.sort(files);
    const rank = new Map(base.map((spec, i) => [spec, i]));
    return [...base].sort((a, b) => (expected(b) ?? -1) - (expected(a) ?? -1) || rank.get(a)! - rank.get(b)!);
  }
}
