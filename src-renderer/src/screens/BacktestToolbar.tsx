import type { BacktestForm } from '../store';

/** The period and scenario a backtest runs over, the button that runs it, and the one that cancels it while it runs. */
export function BacktestToolbar({
  form: { from, to, scenario },
  scenarios,
  running,
  onEdit,
  onRun,
  onCancel,
}: {
  form: BacktestForm;
  scenarios: string[];
  running: boolean;
  onEdit: (change: Partial<BacktestForm>) => void;
  onRun: (from: string, to: string, scenario: string) => void;
  onCancel: () => void;
}) {
  return (
    <form
      className="toolbar"
      onSubmit={(e) => {
        e.preventDefault();
        onRun(from, to, scenario);
      }}
    >
      <label>
        From <input type="date" name="from" value={from} onChange={(e) => onEdit({ from: e.target.value })} required />
      </label>
      <label>
        To <input type="date" name="to" value={to} onChange={(e) => onEdit({ to: e.target.value })} required />
      </label>
      <label>
        Scenario
        <select name="scenario" value={scenario} onChange={(e) => onEdit({ scenario: e.target.value })}>
          {scenarios.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={running}>
        {running ? 'Running…' : 'Run backtest'}
      </button>
      {running && (
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      )}
    </form>
  );
}
