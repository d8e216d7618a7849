/** How a client reaches one API: its address, tenant, credentials and a copyable token command. */
export function ApiFacts({
  label,
  url,
  tenant,
  clientId,
  clientSecret,
  curl,
  testIds,
}: {
  /** What the address is called ("API", "Listening on"). */
  label: string;
  url: string;
  tenant: string;
  clientId: string;
  clientSecret?: string;
  curl?: string;
  testIds: { facts?: string; url?: string; curl: string };
}) {
  return (
    <dl className="facts" data-testid={testIds.facts}>
      <dt>{label}</dt>
      <dd>
        <code data-testid={testIds.url}>{url}</code> (also under <code>/v1</code>)
      </dd>
      <dt>Tenant</dt>
      <dd>
        <code>{tenant}</code>
      </dd>
      <dt>Client id</dt>
      <dd>
        <code>{clientId}</code>
      </dd>
      <dt>Client secret</dt>
      <dd>
        <code>{clientSecret}</code>
      </dd>
      {curl && (
        <>
          <dt>Token</dt>
          <dd className="curl">
            <code data-testid={testIds.curl}>{curl}</code>
            <button type="button" onClick={() => void navigator.clipboard?.writeText(curl)}>
              Copy
            </button>
          </dd>
        </>
      )}
    </dl>
  );
}
