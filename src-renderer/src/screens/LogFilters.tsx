import { count, whole } from '../../../common/format';
import { FilterSelect } from '../FilterSelect';
import { LOG_ORDERS, STATUS_CLASSES, type LogFilter, type LogOrder } from './request-log';

/**
 * What the request log shows and in which order: words to find, a status class, an endpoint, refused requests
 * only, the screens' own calls; how many are shown, and the export of those.
 *
 * Over 80 lines only for the markup of its one row of filters.
 */
export function LogFilters({
  filter,
  onFilter,
  order,
  onOrder,
  endpoints,
  shown,
  total,
  hiddenOwn,
  onExport,
}: {
  filter: LogFilter;
  onFilter: (filter: LogFilter) => void;
  order: LogOrder;
  onOrder: (order: LogOrder) => void;
  endpoints: string[];
  /** How many requests are shown, of how many read, and how many of the screens' own calls are left out. */
  shown: number;
  total: number;
  hiddenOwn: number;
  onExport: () => void;
}) {
  return (
    <div className="log__filters">
      <input
        type="search"
        name="log-text"
        aria-label="Filter the requests"
        placeholder="Filter: path, status, dataset, message"
        value={filter.text}
        onChange={(ev) => onFilter({ ...filter, text: ev.target.value })}
      />
      <select name="log-order" aria-label="Order" value={order} onChange={(ev) => onOrder(ev.target.value as LogOrder)}>
        {Object.entries(LOG_ORDERS).map(([key, o]) => (
          <option key={key} value={key}>
            {o.label}
          </option>
        ))}
      </select>
      <FilterSelect
        name="log-status"
        label="Status"
        value={filter.status}
        values={STATUS_CLASSES}
        every="every status"
        onChange={(status) => onFilter({ ...filter, status: status as LogFilter['status'] })}
      />
      <FilterSelect
        name="log-endpoint"
        label="Endpoint"
        value={filter.endpoint}
        values={endpoints}
        every="every endpoint"
        onChange={(endpoint) => onFilter({ ...filter, endpoint })}
      />
      <label>
        <input
          type="checkbox"
          name="log-refused"
          checked={filter.refusedOnly}
          onChange={(ev) => onFilter({ ...filter, refusedOnly: ev.target.checked })}
        />{' '}
        Refused only (4xx, 5xx)
      </label>
      <label>
        <input
          type="checkbox"
          name="log-own"
          checked={filter.own}
          onChange={(ev) => onFilter({ ...filter, own: ev.target.checked })}
        />{' '}
        The screens' own calls (/_workbench)
      </label>
      <span className="hint" data-testid="log-count">
        {whole(shown)} of {count(total, 'request')}
        {hiddenOwn > 0 ? ` (${whole(hiddenOwn)} of the screens' own hidden)` : ''}
      </span>
      <button type="button" onClick={onExport} disabled={shown === 0}>
        Export CSV
      </button>
    </div>
  );
}
