import { useCallback, useMemo, useState } from 'react';
import { whole } from '../../../common/format';
import type { SweepReport } from '../client';
import { FrontierChart, type FrontierMeasure, type FrontierStock } from '../FrontierChart';
import { download, toCsv } from '../csv';
import { go } from '../route';
import { useSort } from '../sort';
import { useNames } from '../use-names';
import { rate, sweepColumns, SweepPoints } from './SweepPoints';
import { SweepPick, type PickProps } from './SweepPick';

const units = whole;

/** A sweep's points as a CSV file, in the order shown. */
export function sweepCsv(report: SweepReport, rows: readonly SweepReport['runs'][number][]): string {
  const varied = report.axes.map((a) => a.setting);
  const head = ['point', ...varied, 'lostSales', 'fillRate', 'inventoryUnits', 'trips', 'units', 'frontier', 'runId'];
  const cells = rows.map((r) => [
    r.point,
    ...varied.map((s) => r.vary[s]),
    r.lostSales,
    r.fillRate ?? '',
    r.inventoryUnits,
    r.trips,
    r.units,
    r.frontier ? 'yes' : '',
    r.runId,
  ]);
  return toCsv(head, cells);
}

/**
 * The sweep shown, if any: its caption, the constraint that picks a point and the name to keep it under, the
 * frontier chart (measured as chosen here), the history's own point and the points' table, exported as sorted. It
 * stays mounted while no sweep is shown so that the measure, stock and sort chosen carry over to the next sweep.
 */
export function SweepResult({ report, ...pick }: { report: SweepReport | undefined } & PickProps) {
  const { currency } = useNames();
  const [measure, setMeasure] = useState<FrontierMeasure>('lostSales');
  const [stock, setStock] = useState<FrontierStock>('inventoryUnits');
  const open = useCallback((runId: string) => go({ screen: 'backtest', runId }), []);
  const columns = useMemo(() => sweepColumns(report?.axes.map((a) => a.setting) ?? []), [report]);
  const { sorted, heading } = useSort(report?.runs ?? [], columns);
  if (!report) return null;
  const varied = report.axes.map((a) => a.setting);
  return (
    <>
      <h2>
        {report.sweepId}: {report.from} … {report.to}, {report.points} points from {report.scenario ?? 'default'}
        {report.status === 'cancelled' ? ' (cancelled)' : ''}
      </h2>
      <SweepPick report={report} measure={measure} onMeasure={setMeasure} stock={stock} onStock={setStock} {...pick} />
      <FrontierChart
        sweep={report}
        measure={measure}
        stock={stock}
        picked={pick.picked ?? undefined}
        open={open}
        currency={currency}
      />
      <p className="hint" data-testid="actual-point">
        {`Actual: lost sales ${units(report.actual.lostSales)}, fill rate ${rate(report.actual.fillRate)}, ` +
          `store stock ${units(report.actual.inventoryUnits)}. Points on the frontier lose less at no more ` +
          'stock than any other. Click a point to open its run.'}
      </p>
      <div className="toolbar">
        <button type="button" onClick={() => download(`${report.sweepId}.csv`, sweepCsv(report, sorted))}>
          Export CSV
        </button>
      </div>
      <SweepPoints rows={sorted} varied={varied} heading={heading} picked={pick.picked} />
    </>
  );
}
