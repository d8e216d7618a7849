import type { ReactNode } from 'react';

/**
 * What a screen tells of its work, in one place and one look: an error (read out at once) above a notice of what
 * is going on or was done (read out when the reader is free). Either may be absent.
 */
export function Notices({ error, notice }: { error?: ReactNode; notice?: ReactNode }) {
  return (
    <>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
    </>
  );
}
