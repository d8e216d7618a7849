/**
 * Why what a screen shows is not the workspace's own yet: a load is changing it, or it was read before a load
 * ended and is being read again, or reading it again failed.
 */
export type Staleness = 'loading' | 'refreshing' | 'stale';

const SAYS: Record<Staleness, string> = {
  loading: 'A load is under way: this is what the workspace held before it.',
  refreshing: 'Read before the last load: reading it again…',
  stale: 'Read before the last load, and not read again since: Refresh reads it.',
};

/** `of`: what is behind, as the screen names its section. */
export function Behind({ why, of }: { why: Staleness; of: string }) {
  return (
    <p className="hint" aria-live="polite" data-behind-of={of} data-behind={why}>
      {SAYS[why]}
    </p>
  );
}
