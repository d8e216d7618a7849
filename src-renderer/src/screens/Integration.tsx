import { useState } from 'react';
import type { AdminClient } from '../client';
import { download } from '../csv';
import { LocalApi } from './LocalApi';
import { ApiFacts } from './ApiFacts';
import { Notices } from '../Notices';
import { useFetch } from '../use-fetch';
import { LogFilters } from './LogFilters';
import { RequestLogList } from './RequestLogList';
import { EVERY_REQUEST, exportLog, viewLog, type LogFilter, type LogOrder } from './request-log';
import { useRequestLog } from './use-request-log';

/** What an integrator needs: where the API is, how to get a token, and what each request did. */
export function Integration({ client }: { client: AdminClient }) {
  const { data: info, error: infoError } = useFetch(() => client.call('GET /integration'), [client]);
  const { entries, error, setError } = useRequestLog(client);
  const [filter, setFilter] = useState<LogFilter>(EVERY_REQUEST);
  const [order, setOrder] = useState<LogOrder>('newest');
  const { visible, endpoints, hiddenOwn } = viewLog(entries, filter, order);
  return (
    <section aria-label="Integration">
      <Notices error={error ?? infoError} />
      <LocalApi client={client} />
      {info?.url && (
        <>
          <h2>This window's server</h2>
          <p className="hint">The server showing these screens answers the API too, with the workspace's own tenant.</p>
          <ApiFacts label="API" {...info} url={info.url} testIds={{ curl: 'curl' }} />
        </>
      )}
      <p>
        <button
          type="button"
          onClick={() =>
            void client.call('GET /openapi').then(
              (doc) => download('openapi.json', JSON.stringify(doc, null, 2), 'application/json'),
              (e: Error) => setError(e.message),
            )
          }
        >
          Download the OpenAPI document
        </button>
      </p>
      <h2>Requests</h2>
      <LogFilters
        filter={filter}
        onFilter={setFilter}
        order={order}
        onOrder={setOrder}
        endpoints={endpoints}
        shown={visible.length}
        total={entries.length}
        hiddenOwn={hiddenOwn}
        onExport={() => exportLog(visible)}
      />
      <RequestLogList entries={visible} total={entries.length} hiddenOwn={hiddenOwn} />
    </section>
  );
}
