/**
 * The rows the engine's network is built from: the live locations, the SKUs of live items, the collections the
 * client excluded and the styles still on order. A live run keeps them (KeptNetwork) and reads them again only when
 * a table they come from changed: master data changes seldom, while sales and stock are posted between every two
 * runs.
 */
import { getDataset } from '../model/datasets.js';
import { dataFingerprint } from '../store/history-cache.js';
import type { Workspace } from '../store/workspace.js';

/** The datasets whose tables the rows are read from. */
const SOURCES = [
  'Locations',
  'ExcludedLocations',
  'Items',
  'ExcludedSkus',
  'ExcludedCollections',
  'PurchaseOrders',
].map(getDataset);

export interface NetworkRows {
  locRows: LocationRow[];
  skuRows: SkuRow[];
  excludedCollections: Set<string>;
  stylesOnOrder: Set<string>;
}

/** The network's rows as the last read found them, and what their tables held then. */
export class KeptNetwork {
  private kept?: { fingerprint: string; rows: NetworkRows };

  /** The rows as the workspace holds them now (never to be changed: the next run may take them again). */
  async rows(ws: Workspace): Promise<NetworkRows> {
    const fingerprint = await dataFingerprint(ws, SOURCES);
    if (this.kept?.fingerprint !== fingerprint) this.kept = { fingerprint, rows: await readNetworkRows(ws) };
    return this.kept.rows;
  }
}

/** The rows as the workspace holds them, read anew. */
export async function readNetworkRows(ws: Workspace): Promise<NetworkRows> {
  return {
    locRows: await readLocations(ws),
    skuRows: await readSkus(ws),
    excludedCollections: await readExcludedCollections(ws),
    stylesOnOrder: await readStylesOnOrder(ws),
  };
}

/** A location as the network reads it; `excluded` is the client's exclusion, `closed` when it closes (µs). */
export interface LocationRow {
  locationId: string;
  gln: string | null;
  closed: bigint | null;
  excluded: boolean;
}

/** A SKU of a live item with what its style is filed under (the SKU's own brand, season, collection first). */
export interface SkuRow {
  skuId: string;
  styleId: string;
  sizeId: string;
  colorId: string;
  itemId: string;
  category: string;
  brand: string | null;
  season: string | null;
  collection: string | null;
  excluded: boolean;
}

/** The live locations, in id order (the order of the state's location arrays). */
function readLocations(ws: Workspace): Promise<LocationRow[]> {
  return ws.rows<LocationRow>(`
    SELECT l.locationId, l.gln, epoch_us(l.dateClosed) AS closed,
           EXISTS (SELECT 1 FROM excluded_locations e
                   WHERE e.locationId = l.locationId AND e._deleted_at IS NULL) AS excluded
    FROM locations AS l WHERE l._deleted_at IS NULL ORDER BY l.locationId`);
}

/**
 * SKUs of live items, grouped by style in the order the item lists them (its size order); a SKU two items list
 * belongs to the one updated last.
 */
function readSkus(ws: Workspace): Promise<SkuRow[]> {
  return ws.rows<SkuRow>(`
    SELECT s.skuId, s.styleId, s.sizeId, s.colorId, s._itemId AS itemId, i.merchandiseCategoryId AS category,
           coalesce(s.brandId, i.brandId) AS brand, coalesce(s.seasonId, i.seasonId) AS season,
           coalesce(s.collectionId, i.collectionId) AS collection,
           EXISTS (SELECT 1 FROM excluded_skus e WHERE e.skuId = s.skuId AND e._deleted_at IS NULL) AS excluded
    FROM items__skus AS s JOIN items AS i ON i.itemId = s._itemId AND i._deleted_at IS NULL
    QUALIFY row_number() OVER (PARTITION BY s.skuId ORDER BY i._updated_at DESC) = 1
    ORDER BY s.styleId, s._itemId, s._ord`);
}

/** Collections the client excluded: their styles are excluded with them (networkStyles). */
async function readExcludedCollections(ws: Workspace): Promise<Set<string>> {
  const rows = await ws.rows<{ collectionId: string }>(
    `SELECT collectionId FROM excluded_collections WHERE _deleted_at IS NULL`,
  );
  return new Set(rows.map((r) => r.collectionId));
}

/** Styles with a purchase order still to deliver some of them. */
async function readStylesOnOrder(ws: Workspace): Promise<Set<string>> {
  const rows = await ws.rows<{ styleId: string }>(`
    SELECT DISTINCT s.styleId FROM purchase_order_status AS p
    JOIN purchase_orders__purchaseOrderLines AS l ON l._purchaseOrderId = p.purchaseOrderId
    JOIN items__skus AS s ON s.skuId = l.skuId
    WHERE p.status IN ('open', 'partiallyReceived') AND l.quantityOutstanding > 0`);
  return new Set(rows.map((r) => r.styleId));
}
