import type { BacktestComparison } from '../client';
import { scenarioOf } from '../runs';

/** The settings behind the difference: each one the two runs were given differently. */
export function SettingsDifference({ result }: { result: BacktestComparison }) {
  const value = (v: unknown) => (v === null ? '(not set)' : JSON.stringify(v));
  if (result.settings.length === 0)
    return (
      <p className="hint" data-testid="settings-difference">
        Both runs used the same settings.
      </p>
    );
  return (
    <>
      <h3>Settings that differ</h3>
      <table className="grid" aria-label="Settings that differ">
        <thead>
          <tr>
            <th>Setting</th>
            <th>a: {scenarioOf(result.a.run)}</th>
            <th>b: {scenarioOf(result.b.run)}</th>
          </tr>
        </thead>
        <tbody>
          {result.settings.map((d) => (
            <tr key={d.path} data-setting={d.path}>
              <td>{d.path}</td>
              <td>{value(d.a)}</td>
              <td>{value(d.b)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
