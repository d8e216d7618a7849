import { money, percent } from '../../../common/format';
import type { BacktestResult } from '../client';
import { KPIS, show, versusActual, type Kpi } from '../kpis';
import { units } from '../units';
import { useNames } from '../use-names';

/** A KPI with the engine's figure first, the actual one under it, and the difference coloured better or worse. */
export function KpiCard({ kpi, summary }: { kpi: Kpi; summary: BacktestResult['summary'] }) {
  const change = versusActual(kpi, summary.simulated, summary.actual);
  return (
    <div className="card" data-kpi={kpi.key} title={kpi.explains}>
      <div className="card__label">{kpi.label}</div>
      <div className="card__value">{show(kpi, summary.simulated)}</div>
      <div className="card__actual">
        actual {show(kpi, summary.actual)}
        {change && (
          <span className={`card__change card__change--${change.tone}`} data-tone={change.tone}>
            {' '}
            {change.text}
          </span>
        )}
      </div>
    </div>
  );
}

const STOCK_OUT_DAY = KPIS.find((k) => k.key === 'stockOutDays')!;

/** How much of the comparison rests on estimates, and what happened only in one of the two worlds. */
export function Estimates({ summary }: { summary: BacktestResult['summary'] }) {
  const { currency } = useNames();
  const s = summary.simulated;
  const share = s.demand > 0 ? ` (${percent(s.estimatedDemand / s.demand)})` : '';
  return (
    <p className="hint" data-testid="estimates">
      Demand {units(s.demand)} units, of it {units(s.estimatedDemand)} estimated{share}: on days a store carried a SKU
      without stock, and beyond the sales of days it sold out; both sides meet the same demand.{' '}
      <span data-testid="stock-out-day">Stock-out days: {STOCK_OUT_DAY.explains}</span> The engine sold{' '}
      {units(s.estimatedSales)} of the estimated units.
      {s.writeDownShortfall.units > 0 &&
        ` Write-downs beyond the simulated stock: ${units(s.writeDownShortfall.units)} units ` +
          `on ${units(s.writeDownShortfall.days)} SKU-days, taken in fact only.`}
      {s.unsentTransferUnits > 0 &&
        ` Transfers never sent: ${units(s.unsentTransferUnits)} units ` +
          '(the stock their sender waited for did not come in time).'}
      {typeof summary.actual.recordedRevenue === 'number' &&
        ` Recorded revenue of the period: ${money(summary.actual.recordedRevenue, currency)} (every sales line's ` +
          `amount, ` +
          `returns, cancellations and discount lines included); sales value counts the units sold at their own ` +
          `lines' amounts.`}
      <NegativeStockNote below={summary.actual.negativeStock} />
      {summary.world && (
        <span data-testid="world">
          {' '}
          Transit in the world the data shows: {summary.world.transit}; the replay's transfers take that long, whatever
          lead time the scenario plans with.
          {` Deliveries to the stores (store-days stock arrived): ${units(s.deliveries)} simulated, `}
          {`${units(summary.actual.deliveries)} in fact.`}
        </span>
      )}
    </p>
  );
}

/** Where the history's actual stock went below zero: counted as none, and named, so no one reads it as stock. */
function NegativeStockNote({ below }: { below?: BacktestResult['summary']['actual']['negativeStock'] }) {
  if (!below || below.cells === 0) return null;
  const worst = below.worst[0];
  return (
    <span data-testid="negative-stock">
      {' '}
      Actual stock went below zero at {units(below.cells)} location×SKUs on {units(below.cellDays)} days (lowest{' '}
      {units(worst.lowest)} at {worst.locationId} × {worst.skuId}): the history sold what it did not hold, so that stock
      counts as none in the actual figures. The feed lint names the cells.
    </span>
  );
}
