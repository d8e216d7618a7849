import type { BacktestComparison } from '../client';
import { difference, KPIS, show } from '../kpis';
import { scenarioOf } from '../runs';

/** Each KPI of both runs, the change from a to b, and what happened in fact over a's period. */
export function CompareKpis({ result }: { result: BacktestComparison }) {
  return (
    <table className="grid compare" aria-label="KPIs of both runs">
      <thead>
        <tr>
          <th>KPI</th>
          <th className="num">a: {scenarioOf(result.a.run)}</th>
          <th className="num">b: {scenarioOf(result.b.run)}</th>
          <th className="num">b − a</th>
          <th className="num">actual (a's period)</th>
        </tr>
      </thead>
      <tbody>
        {KPIS.map((kpi) => (
          <tr key={kpi.key} data-kpi={kpi.key}>
            <td title={kpi.explains}>{kpi.label}</td>
            <td className="num">{show(kpi, result.a.simulated)}</td>
            <td className="num">{show(kpi, result.b.simulated)}</td>
            <td className="num">{difference(kpi, result.difference[kpi.key])}</td>
            <td className="num">{show(kpi, result.actual)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
