import { count, signed } from '../../../common/format';
import type { BacktestComparison } from '../client';
import { routeHash } from '../route';

/**
 * The styles behind the difference: those whose lost sales moved most from a to b, each opening its drill in run b.
 * Two runs a point of fill apart often differ by a handful of styles, and those are where to look.
 */
export function StylesDifference({ result }: { result: BacktestComparison }) {
  const d = result.styles;
  if (d.styles.length === 0)
    return (
      <p className="hint" data-testid="styles-difference">
        No style lost more or fewer sales in b than in a.
      </p>
    );
  return (
    <>
      <h3>Styles that moved most</h3>
      <p className="hint" data-testid="styles-difference">
        Lost sales b − a: {signed(d.lostSales)} units over every style; {signed(d.namedLostSales)} from the{' '}
        {count(d.styles.length, 'style')} below.
      </p>
      <table className="grid" aria-label="Styles that moved most">
        <thead>
          <tr>
            <th>Style</th>
            <th>Lost sales b − a</th>
            <th>Sales b − a</th>
            <th>Store stock b − a</th>
            <th>Warehouse stock b − a</th>
          </tr>
        </thead>
        <tbody>
          {d.styles.map((s) => (
            <tr key={s.id} data-style={s.id}>
              <td>
                <a className="link" href={routeHash({ screen: 'backtest', runId: result.b.run.runId, styleId: s.id })}>
                  {s.id}
                </a>
              </td>
              <td>{signed(s.lostSales)}</td>
              <td>{signed(s.sales)}</td>
              <td>{signed(s.inventoryUnits)}</td>
              <td>{signed(s.warehouseUnits)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
