import type { BacktestRun } from '../client';
import { scenarioOf } from '../runs';

const describe = (r: BacktestRun) =>
  `${r.label ? `${r.label} (${r.runId})` : r.runId} · ${scenarioOf(r)} · ${r.from} … ${r.to}`;

/** The two runs to compare, each picked among the kept runs by its name, scenario and period, and the button. */
export function ComparePicker({
  runs,
  picked: { a, b },
  busy,
  onPick,
  onCompare,
}: {
  runs: BacktestRun[];
  picked: { a: string; b: string };
  /** A comparison is being read: no other is asked for meanwhile. */
  busy: boolean;
  onPick: (pair: { a: string; b: string }) => void;
  onCompare: (pair: { a: string; b: string }) => void;
}) {
  return (
    <form
      className="toolbar"
      onSubmit={(e) => {
        e.preventDefault();
        onCompare({ a, b });
      }}
    >
      {(
        [
          ['a', a, (v: string) => onPick({ a: v, b })],
          ['b', b, (v: string) => onPick({ a, b: v })],
        ] as const
      ).map(([name, value, set]) => (
        <label key={name}>
          Run {name}
          <select name={name} value={value} onChange={(e) => set(e.target.value)}>
            {runs.map((r) => (
              <option key={r.runId} value={r.runId}>
                {describe(r)}
              </option>
            ))}
          </select>
        </label>
      ))}
      <button type="submit" disabled={busy || !a || !b}>
        {busy ? 'Comparing…' : 'Compare'}
      </button>
    </form>
  );
}
