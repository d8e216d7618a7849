import { useEffect, useState } from 'react';
import type { DatasetSummary } from '../../../common/api-types';
import { settingName } from '../../../common/setting-names';
import type { Sweepable } from '../client';
import { useWorkbench } from '../store';

/** One varied setting as the form holds it: the values as typed. */
interface Axis {
  setting: string;
  values: string;
}

/** What a sweep is asked to run: a period, the scenario every point starts from, each setting's values. */
export interface SweepRequest {
  from: string;
  to: string;
  scenario: string;
  vary: { setting: string; values: number[] }[];
}

const MAX_AXES = 3;

const parseValues = (text: string) =>
  text
    .split(/[,\s]+/)
    .filter(Boolean)
    .map(Number);

/** The period the form starts with: the Backtest screen's, else the sales the workspace holds. */
function startingPeriod(summary: DatasetSummary[] | undefined, backtest?: { from: string; to: string }) {
  if (backtest?.from && backtest.to) return { from: backtest.from, to: backtest.to };
  const sales = summary?.find((d) => d.dataset === 'Sales');
  return { from: sales?.from?.slice(0, 10) ?? '', to: sales?.to?.slice(0, 10) ?? '' };
}

/**
 * A sweep set up: its period, the scenario it starts from, and up to three settings with the values each takes.
 * The grid is every combination of them, and runs only within the workbench's limit of points.
 */
export function SweepSetup({
  settings,
  maxPoints,
  scenarios,
  summary,
  running,
  onStart,
}: {
  /** The settings a sweep may vary. */
  settings: readonly Sweepable[];
  maxPoints: number;
  scenarios: string[];
  summary: DatasetSummary[] | undefined;
  /** A sweep is running: no other starts. */
  running: boolean;
  onStart: (request: SweepRequest) => void;
}) {
  const { backtestForm } = useWorkbench();
  const [period, setPeriod] = useState(() => startingPeriod(summary, backtestForm));
  const [base, setBase] = useState(scenarios[0] ?? 'default');
  const [axes, setAxes] = useState<Axis[]>([
    { setting: 'defaults.serviceLevel', values: '0.85, 0.9, 0.95, 0.99' },
    { setting: 'redistribution.tripCost', values: '20, 40, 80' },
  ]);
  useEffect(() => {
    if (!period.from && summary) setPeriod(startingPeriod(summary, backtestForm));
  }, [summary, period.from, backtestForm]);
  const points = axes.reduce((n, a) => n * Math.max(1, parseValues(a.values).length), 1);
  return (
    <form
      className="toolbar"
      aria-label="Set up a sweep"
      onSubmit={(e) => {
        e.preventDefault();
        onStart({
          from: period.from,
          to: period.to,
          scenario: base,
          vary: axes.map((a) => ({ setting: a.setting, values: parseValues(a.values) })),
        });
      }}
    >
      <label>
        From <input type="date" value={period.from} onChange={(e) => setPeriod({ ...period, from: e.target.value })} />
      </label>
      <label>
        To <input type="date" value={period.to} onChange={(e) => setPeriod({ ...period, to: e.target.value })} />
      </label>
      <label>
        Starting from{' '}
        <select value={base} onChange={(e) => setBase(e.target.value)}>
          {scenarios.map((s) => (
            <option key={s}>{s}</option>
          ))}
        </select>
      </label>
      {axes.map((a, i) => (
        <AxisInput
          key={i}
          axis={a}
          index={i}
          settings={settings}
          onChange={(axis) => setAxes(axes.map((x, j) => (j === i ? axis : x)))}
          onRemove={() => setAxes(axes.filter((_, j) => j !== i))}
        />
      ))}
      {axes.length < MAX_AXES && (
        <button type="button" onClick={() => setAxes([...axes, { setting: settings[0]?.path ?? '', values: '' }])}>
          Vary another setting
        </button>
      )}
      <button type="submit" disabled={running || axes.length === 0 || points > maxPoints}>
        {`Run sweep (${points} point${points === 1 ? '' : 's'})`}
      </button>
      {points > maxPoints && <span className="error">at most {maxPoints} points</span>}
    </form>
  );
}

/** One setting a sweep varies: which, and the values it takes. */
function AxisInput({
  axis: a,
  index: i,
  settings,
  onChange,
  onRemove,
}: {
  axis: Axis;
  index: number;
  settings: readonly Sweepable[];
  onChange: (axis: Axis) => void;
  onRemove: () => void;
}) {
  return (
    <span className="axis" data-axis={i}>
      <select
        aria-label={`Setting ${i + 1}`}
        value={a.setting}
        onChange={(e) => onChange({ ...a, setting: e.target.value })}
      >
        {settings.map((s) => (
          <option key={s.path} value={s.path} title={`${s.path}: ${s.description}`}>
            {settingName(s.path)}
          </option>
        ))}
      </select>{' '}
      <input
        aria-label={`Values of setting ${i + 1}`}
        value={a.values}
        onChange={(e) => onChange({ ...a, values: e.target.value })}
      />{' '}
      <button type="button" aria-label={`Remove setting ${i + 1}`} onClick={onRemove}>
        ×
      </button>
    </span>
  );
}
