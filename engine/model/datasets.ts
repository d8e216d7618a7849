/**
 * The registry of datasets: one entry per write endpoint of the spec, naming its record schema, its body
 * envelope and which of the spec's semantics (full load, delete, dated history) apply.
 */
import type { TObject } from '@sinclair/typebox';
import { Item } from './items.js';
import { Location } from './locations.js';
import { Sale } from './sales.js';
import { PurchaseOrder } from './purchase-orders.js';
import { Prepack, StockLevel, StockMutation } from './stock.js';
import { MASTER_DATA, masterDataRecord } from './master-data.js';
import {
  ClientTransfer,
  ExcludedCollection,
  ExcludedLocation,
  ExcludedSku,
  MerchandiseCategorySetting,
  StockNotForReplenishment,
  StockTarget,
} from './settings.js';
import { asciiLower } from './ascii.js';
import { entityKey } from './fields.js';
import { Image, ImageUrl } from './images.js';

export interface RecordProblem {
  /** JSON pointer relative to the record, e.g. `/currencyId`. */
  path: string;
  message: string;
}

export interface DatasetDef {
  /** Endpoint name as in the spec's path: `Items`, `PurchaseOrders`. */
  name: string;
  /** The one array in the body, the endpoint's name in camelCase. */
  envelope: string;
  /** Database table of the records; child arrays get `<table>__<field>`. */
  table: string;
  record: TObject;
  /** Fields that identify a record. */
  key: readonly string[];
  /** The spec lists `fullLoad` (and `moreRecordsAvailable`) for this endpoint. */
  fullLoad: boolean;
  /** The spec lists DELETE for this endpoint. */
  deletable: boolean;
  /** Records are dated levels kept as history rather than replaced (Stock). */
  history?: boolean;
  /** Rules that a JSON schema cannot say, checked after it passes. */
  check?: (record: Record<string, unknown>) => RecordProblem[];
  /** Recommended maximum records per call (spec "Limits"). */
  recommendedMax?: number;
  /**
   * Largest request body accepted, in bytes: twice the recommended maximum of generous records (docs/design.md §3).
   */
  bodyLimit: number;
  /** Schema version whose migration creates this dataset's tables. */
  since: number;
  /** One of the master-data endpoints (`{<name>Id, code, description?}`). */
  masterData?: boolean;
}

function camel(name: string): string {
  return name[0].toLowerCase() + name.slice(1);
}

function snake(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

const MB = 1024 * 1024;
/** Body limit of endpoints the spec gives no recommended maximum for (master data, settings). */
const DEFAULT_BODY_LIMIT = 16 * MB;

/** Twice the spec's recommended records per call, at `bytesPerRecord` each, but never below the default. */
function bodyLimitFor(recommendedMax: number | undefined, bytesPerRecord: number): number {
  return Math.max(DEFAULT_BODY_LIMIT, Math.ceil((2 * (recommendedMax ?? 0) * bytesPerRecord) / MB) * MB);
}

function define(
  name: string,
  record: TObject,
  opts: Partial<DatasetDef> & { bytesPerRecord?: number } = {},
): DatasetDef {
  const { bytesPerRecord = 1024, ...rest } = opts;
  return {
    name,
    envelope: camel(name),
    table: snake(name),
    record,
    key: entityKey(record),
    fullLoad: false,
    deletable: true,
    since: 1,
    ...rest,
    bodyLimit: rest.bodyLimit ?? bodyLimitFor(rest.recommendedMax, bytesPerRecord),
  };
}

const currencyRequired = (po: Record<string, unknown>): RecordProblem[] =>
  po.currencyId == null && po.currencyCode == null
    ? [
        {
          path: '/currencyId',
          message: 'currencyId is required (send the fixed value "local"); currencyCode is accepted in its place',
        },
      ]
    : [];

export const DATASETS: readonly DatasetDef[] = [
  ...MASTER_DATA.map(([name, idField, title]) => define(name, masterDataRecord(idField, title), { masterData: true })),
  define('Items', Item, { recommendedMax: 25_000, bytesPerRecord: 4096 }),
  define('Locations', Location, { fullLoad: true }),
  define('Sales', Sale, { recommendedMax: 10_000, bytesPerRecord: 2048 }),
  define('PurchaseOrders', PurchaseOrder, {
    fullLoad: true,
    check: currencyRequired,
    recommendedMax: 25_000,
    bytesPerRecord: 2048,
  }),
  define('Stock', StockLevel, {
    fullLoad: true,
    deletable: false,
    history: true,
    recommendedMax: 50_000,
    bytesPerRecord: 256,
  }),
  define('StockMutations', StockMutation, { recommendedMax: 50_000, bytesPerRecord: 384 }),
  define('Prepacks', Prepack, { deletable: false, recommendedMax: 25_000, bytesPerRecord: 512 }),
  define('StockTargets', StockTarget),
  define('Transfers', ClientTransfer, { recommendedMax: 10_000, bytesPerRecord: 512 }),
  define('ExcludedCollections', ExcludedCollection),
  define('ExcludedLocations', ExcludedLocation),
  define('ExcludedSkus', ExcludedSku),
  define('MerchandiseCategorySettings', MerchandiseCategorySetting),
  define('StockNotForReplenishment', StockNotForReplenishment, {
    deletable: false,
    envelope: 'stockNotForReplenishment',
  }),
  define('Images', Image, { deletable: false, since: 2, bodyLimit: 64 * MB }),
  define('Images/urls', ImageUrl, {
    deletable: false,
    since: 2,
    envelope: 'urls',
    table: 'image_urls',
    recommendedMax: 1_000,
    bytesPerRecord: 4096,
  }),
];

const byName = new Map(DATASETS.map((d) => [asciiLower(d.name), d]));

/** The dataset of an endpoint name, matched case-insensitively as the service matches paths. */
export function findDataset(name: string): DatasetDef | undefined {
  return byName.get(asciiLower(name));
}

export function getDataset(name: string): DatasetDef {
  const d = findDataset(name);
  if (!d) throw new UnknownDatasetError(name);
  return d;
}

export class UnknownDatasetError extends Error {
  constructor(readonly dataset: string) {
    super(`unknown dataset "${dataset}"; known: ${DATASETS.map((d) => d.name).join(', ')}`);
  }
}
