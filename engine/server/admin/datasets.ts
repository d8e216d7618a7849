/** Admin routes on the stored datasets: what they hold, a record by key, a page, and the reset. */
import { Type } from '@sinclair/typebox';
import type { BusinessNames } from '../../service/names.js';
import type { FastifyRequest } from 'fastify';
import { asciiLower } from '../../model/ascii.js';
import { DATASETS, type DatasetDef } from '../../model/datasets.js';
import type { JsonRecord } from '../../model/fields.js';
import { formatIsoMicros } from '../../model/datetime.js';
import type { DatasetSummary } from '../../service/workbench.js';
import type { ServerContext } from '../context.js';
import { HttpProblem } from '../problem.js';
import { answer, routeFor } from './route.js';
import { PageQuery } from './schemas.js';

const route = routeFor<ServerContext>();

/** `data/Images/urls/ST1/https%3A…` → the dataset whose name the leading segments spell, and the key segments. */
function datasetPath(req: FastifyRequest): { dataset: DatasetDef; key: string[] } {
  const path = req.url.split('?')[0];
  const at = asciiLower(path).indexOf('/data/');
  const segments = path
    .slice(at + '/data/'.length)
    .split('/')
    .filter((s) => s !== '');
  let best: { dataset: DatasetDef; used: number } | undefined;
  for (const d of DATASETS) {
    const parts = asciiLower(d.name).split('/');
    if (parts.every((p, i) => asciiLower(segments[i] ?? '') === p) && (!best || parts.length > best.used))
      best = { dataset: d, used: parts.length };
  }
  if (!best)
    throw new HttpProblem(
      404,
      'unknown-dataset',
      `no dataset "${segments[0] ?? ''}"; known: ${DATASETS.map((d) => d.name).join(', ')}`,
    );
  let key: string[];
  try {
    key = segments.slice(best.used).map((s) => decodeURIComponent(s));
  } catch {
    throw new HttpProblem(400, 'invalid-path', 'the record key in the path is not valid percent-encoding');
  }
  return { dataset: best.dataset, key };
}

type RecordPage = { records: JsonRecord[]; total: number; offset: number; limit: number };
type StockLevel = { locationId: string; skuId: string; quantity: number };

export const datasetRoutes = {
  'GET /data/*': route({
    summary:
      'A stored record by key (data/{dataset}/{key…}, each segment percent-encoded), ' +
      'or a page of a dataset (data/{dataset})',
    params: Type.Object({ '*': Type.String({ description: 'The dataset, then the record key segments.' }) }),
    query: Type.Object(PageQuery),
    response: answer<JsonRecord | RecordPage | StockLevel>(
      'StoredData',
      'A record as it was sent; a page {records, total, offset, limit}; or, for Stock by location and SKU, ' +
        'its current quantity.',
    ),
    handle: async ({ query }, { wb, req }) => {
      const { dataset, key } = datasetPath(req);
      if (key.length === 0) return wb.list(dataset.name, { offset: query.offset ?? 0, limit: query.limit ?? 100 });
      if (dataset.history && key.length === 2) {
        const stock = await wb.stock(key[0], key[1]);
        if (!stock) throw new HttpProblem(404, 'not-found', `no stock for location "${key[0]}" and SKU "${key[1]}"`);
        return stock;
      }
      if (key.length !== dataset.key.length) {
        throw new HttpProblem(
          400,
          'invalid-path',
          `${dataset.name} records are addressed as data/${dataset.name}/${dataset.key.map((k) => `{${k}}`).join('/')}`,
        );
      }
      const record = await wb.read(dataset.name, key);
      if (!record)
        throw new HttpProblem(404, 'not-found', `${dataset.name} "${key.join('/')}" does not exist or was deleted`);
      return record;
    },
  }),

  'GET /summary': route({
    summary: 'Counts, date ranges and last writes per dataset',
    response: answer<DatasetSummary[]>('DatasetSummaries', 'One entry per dataset.'),
    handle: async (_, { wb }) => wb.summary(),
  }),

  'GET /names': route({
    summary:
      "The business names beside the ids: each location's name and kind, each style's description, colour and " +
      "category, the merchandise categories, and the workspace's currency",
    response: answer<BusinessNames>('BusinessNames', '{currency?, locations, styles, categories}'),
    handle: async (_, { wb }) => wb.names(),
  }),

  'DELETE /full-loads/:dataset': route({
    summary: "Drop a dataset's open split full load: nothing of it is applied or deleted",
    params: Type.Object({
      dataset: Type.String({ description: 'The dataset, as in its endpoint: Locations, Stock…' }),
    }),
    response: answer<{ dataset: string; calls: number; records: number; startedAt: string }>(
      'DroppedFullLoad',
      'The load that was dropped: its calls, records and start.',
    ),
    handle: async ({ params }, { wb }) => {
      const dataset = DATASETS.find((d) => asciiLower(d.name) === asciiLower(params.dataset));
      if (!dataset) throw new HttpProblem(404, 'unknown-dataset', `no dataset "${params.dataset}"`);
      const open = await wb.abandonFullLoad(dataset.name);
      if (!open) throw new HttpProblem(404, 'not-found', `no split full load of ${dataset.name} is open`);
      return {
        dataset: dataset.name,
        calls: open.calls,
        records: open.records,
        startedAt: formatIsoMicros(open.startedAt),
      };
    },
  }),

  'DELETE /state': route({
    summary: 'Reset the workspace: every dataset, run and transfer',
    response: Type.Null(),
    handle: async (_, { wb, reply }) => {
      await wb.reset();
      return reply.code(200).send();
    },
  }),
};
