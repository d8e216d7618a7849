import { useMemo } from 'react';
import { namesOf, type Names } from './names';
import { useWorkbench } from './store';

/** The names of the workspace open now, for a screen: read once per workspace, again after data comes in. */
export function useNames(): Names {
  const names = useWorkbench((s) => s.names);
  return useMemo(() => namesOf(names), [names]);
}
