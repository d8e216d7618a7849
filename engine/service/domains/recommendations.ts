/**
 * Recommendations: the engine run on the workspace as it is now, its proposals kept for approval, and what the
 * API's GET /Recommendations/* hand out (stock targets, product descriptions) and the explanation of one cell.
 */
import { dayOf, formatIsoMicros } from '../../model/datetime.js';
import { explainCell } from '../../forecast/forecast.js';
import { cellOf } from '../../recommend/state.js';
import { basisOf } from '../../recommend/targets.js';
import { pageOf, productDescriptions, tagsOf } from '../product-descriptions.js';
import { liveInputsStamp, type EngineRun, type Recommender, type RunOptions } from '../recommender.js';
import { approve, storeRun, type RunSummary } from '../transfers.js';
import { clearTables, type ClearsOnReset, type ServiceContext } from './context.js';
import type { ScenarioService } from './scenarios.js';

/** How long a listed run's pages are read from the same run while nothing it reads has changed. */
const LISTED_RUN_MICROS = 60_000_000;

export class RecommendationService implements ClearsOnReset {
  /**
   * The live run the stock targets are listed from. A client pages through them one call at a time: the pages
   * come from one run (consistent, and a run on a large workspace takes seconds) while nothing it reads changes.
   */
  private listed?: { key: string; until: number; run: EngineRun };

  constructor(
    private readonly ctx: ServiceContext,
    private readonly scenarios: ScenarioService,
    private readonly recommender: Recommender,
  ) {}

  /**
   * Runs the engine on the workspace as it is now; the proposals replace the open ones of earlier runs.
   * The scenario is the one given, else the named one kept in the workspace (default: "default").
   */
  runRecommendations(
    options: { autoApprove?: boolean; description?: string; scenarioName?: string } & RunOptions = {},
  ): Promise<RunSummary> {
    const ws = this.ctx.workspace;
    return ws.exclusive(async () => {
      const started = this.ctx.stamp();
      const scenario = options.scenario ?? (await this.scenarios.keptSettings(options.scenarioName));
      const run = await this.recommender(ws, started, { asOfDay: options.asOfDay, scenario });
      return ws.transaction(async () => {
        const summary = await storeRun(ws, run.proposals, run.asOfMicros, started, this.ctx.stamp());
        if (options.autoApprove && summary.proposals > 0) {
          const description = options.description ?? 'auto-approved';
          summary.autoApproved = await approve(ws, { description }, this.ctx.stamp());
        }
        return summary;
      });
    });
  }

  /** The demand estimate and target of one location/SKU with every part, for explanation. */
  explainDemand(locationId: string, skuId: string, options: { asOfDay?: number; scenarioName?: string } = {}) {
    const ws = this.ctx.workspace;
    return ws.exclusive(async () => {
      const run = await this.recommender(ws, this.ctx.clock(), {
        asOfDay: options.asOfDay,
        scenario: await this.scenarios.keptSettings(options.scenarioName),
      });
      const l = run.state.locations.ids.indexOf(locationId);
      const k = run.state.skus.ids.indexOf(skuId);
      if (l < 0 || k < 0) return undefined;
      const cell = cellOf(run.state, l, k);
      return {
        locationId,
        skuId,
        asOf: formatIsoMicros(run.asOfMicros),
        locationKind: run.state.locations.kind[l],
        onHand: run.state.onHand[cell],
        inTransit: run.state.inTransit[cell],
        demand: explainCell(run.forecast, cell),
        target: run.targets.target[cell],
        targetBasis: basisOf(run.targets, cell),
      };
    });
  }

  /**
   * GET /Recommendations/stockTargets: the target of every location/SKU that has one, the client's where sent. An
   * online location that sells from a warehouse's stock (`fulfilledFrom`) keeps its target there: `heldAt` says where.
   */
  stockTargets(query: { offset: number; limit: number }) {
    return this.ctx.workspace.exclusive(async () => {
      const { state, targets: t } = await this.listedRun();
      const L = state.locations.ids.length;
      const { ids, fulfilledFrom } = state.locations;
      const cells: number[] = [];
      for (let c = 0; c < t.target.length; c++) if (basisOf(t, c) !== '') cells.push(c);
      const { stockTargets, ...page } = pageOf('stockTargets', cells, query);
      return {
        stockTargets: stockTargets.map((c) => ({
          locationId: state.locations.ids[c % L],
          skuId: state.skus.ids[Math.floor(c / L)],
          targetQuantity: t.target[c],
          source: basisOf(t, c) === 'client' ? 'client' : 'engine',
          basis: basisOf(t, c),
          ...(fulfilledFrom[c % L] >= 0 ? { heldAt: ids[fulfilledFrom[c % L]] } : {}),
        })),
        ...page,
      };
    });
  }

  /** GET /Recommendations/productDescriptions: one per style, made from what the workspace holds. */
  productDescriptions(query: { offset: number; limit: number }) {
    const ws = this.ctx.workspace;
    return ws.exclusive(async () => pageOf('productDescriptions', await productDescriptions(ws), query));
  }

  /** GET /Recommendations/productDescriptions/tags: the tags those descriptions carry, with their style counts. */
  productTags(query: { offset: number; limit: number }) {
    const ws = this.ctx.workspace;
    return ws.exclusive(async () => pageOf('tags', tagsOf(await productDescriptions(ws)), query));
  }

  /** The runs made (their proposals are the transfers' part of the workspace). */
  clear(): Promise<void> {
    return clearTables(this.ctx, ['recommendation_runs']);
  }

  /** A live run under the stored scenario: the one listed last when nothing it reads has changed since. */
  private async listedRun(): Promise<EngineRun> {
    const now = this.ctx.clock();
    const scenario = await this.scenarios.keptSettings();
    const key = JSON.stringify([await liveInputsStamp(this.ctx.workspace), scenario, dayOf(now)]);
    if (this.listed?.key === key && now < this.listed.until) return this.listed.run;
    const run = await this.recommender(this.ctx.workspace, now, { scenario });
    this.listed = { key, until: now + LISTED_RUN_MICROS, run };
    return run;
  }
}
