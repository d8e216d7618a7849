import { useState } from 'react';

/**
 * The selected lines approved as one batch, with its description and planned dispatch day; nothing is approved
 * while the engine works or nothing is selected.
 */
export function ApproveBatch({
  selected,
  busy,
  onApprove,
}: {
  /** How many lines are selected. */
  selected: number;
  busy: boolean;
  onApprove: (description: string, plannedDispatchDate: string) => void;
}) {
  const [description, setDescription] = useState('');
  const [dispatch, setDispatch] = useState('');
  return (
    <form
      className="toolbar approve"
      onSubmit={(e) => {
        e.preventDefault();
        onApprove(description, dispatch);
      }}
    >
      <span>{selected} selected</span>
      <label>
        Description{' '}
        <input
          name="description"
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          maxLength={1000}
        />
      </label>
      <label>
        Planned dispatch{' '}
        <input type="date" name="dispatch" value={dispatch} onChange={(e) => setDispatch(e.target.value)} />
      </label>
      <button type="submit" disabled={busy || selected === 0}>
        Approve selection
      </button>
    </form>
  );
}
