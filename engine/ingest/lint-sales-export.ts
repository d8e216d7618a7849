/**
 * Lint rules for the dirt a retailer's spreadsheet export of sales carries: lines that are no merchandise, amounts
 * that contradict their quantity, lines far outside a SKU's history, till cancellations sent as negative lines, and
 * sales where no stock is kept. Each reports a SKU or a location with its counts and a few of its sales, not a
 * finding per line: a dirty export has thousands of such lines and one cause per SKU (docs/design.md §8.15).
 */
import { LIVE, STOCKED_LOCATIONS, STOCKED_SKUS, day, units, type Rule } from './lint-rule.js';

/** Words that name a charge or a line that is not stock; matched in a SKU's code and its item's description. */
export const NON_MERCHANDISE_WORDS = [
  'fee',
  'postage',
  'carriage',
  'bank charge',
  'discount',
  'manual adjustment',
  'gift card',
  'sample',
] as const;

/**
 * A word of the list, lower case, in the plural too, its space also written as `_`, `-` or nothing (`GIFTCARD`),
 * with no letter either side: `coffee` is no fee, but `FEE01` and `postage-nl` are.
 */
const NON_MERCHANDISE_SPELLINGS = NON_MERCHANDISE_WORDS.map((w) => `${w.replace(/ /g, '[ _-]?')}s?`);
const NON_MERCHANDISE_PATTERN = `(^|[^a-z])(${NON_MERCHANDISE_SPELLINGS.join('|')})([^a-z]|$)`;

/** A line is an outlier for its SKU above max(timesMedian × median, median + madsAboveMedian × MAD) of |quantity|. */
export const OUTLIER = { minLines: 20, timesMedian: 10, madsAboveMedian: 10 } as const;

/**
 * A negative line this soon after the sale it mirrors is a cancellation: a void at the till or an order called off
 * at once. Later it is a return; a longer window would also take the next customer's purchase of the same SKU at the
 * same price for the sale being undone (returns come back a day or more after the sale).
 */
export const CANCELLATION_MINUTES = 5;

/** The sales of a group's three lines that `pick` (an arg_min or arg_max) picks, each once. */
const salesOf = (pick: string) => `list_sort(list_distinct(${pick}))`;
const FIRST_SALES = salesOf('arg_min(_salesId, salesDateTime, 3)');

export const SALES_EXPORT_RULES: Rule[] = [
  {
    rule: 'non-merchandise-sku',
    title: 'SKUs that look like charges, or are sold but never stocked',
    why:
      'Postage, fees, discounts, gift cards and the like are not merchandise, and a SKU that is sold but never ' +
      'in stock, moved or ordered is not stock: replenishing them is meaningless. Leave such lines out of Sales, ' +
      'or send their SKUs to ExcludedSkus.',
    grouped: true,
    sql: `
      WITH sold AS (
        SELECT skuId, count(*) AS lines, sum(quantitySold) AS units, ${FIRST_SALES} AS sample
        FROM ${LIVE.lines} GROUP BY skuId),
      named AS (
        SELECT skuId, code, description, regexp_extract(text, '${NON_MERCHANDISE_PATTERN}', 2) AS word
        FROM (SELECT DISTINCT ON (s.skuId) s.skuId, s.code, i.description,
                     lower(s.code || ' ' || coalesce(i.description, '')) AS text
              FROM ${LIVE.skus} AS s JOIN ${LIVE.items} AS i ON i.itemId = s._itemId
              ORDER BY s.skuId, i.itemId)
        WHERE regexp_matches(text, '${NON_MERCHANDISE_PATTERN}')),
      unstocked AS (SELECT skuId FROM sold WHERE skuId NOT IN ${STOCKED_SKUS})
      SELECT 'Items (SKU)', f.skuId,
             concat_ws('; ',
               'code "' || n.code || '"' || coalesce(', description "' || n.description || '"', '')
                 || ' reads as "' || n.word || '"',
               CASE WHEN d.skuId IS NULL THEN 'never sold'
                    ELSE 'sold on ' || d.lines || ' line(s), ' || ${units('d.units')} || ' units net' END,
               CASE WHEN u.skuId IS NOT NULL THEN 'never in stock, in a stock mutation or on a purchase order' END),
             d.sample, coalesce(d.lines, 0)
      FROM (SELECT skuId FROM named UNION SELECT skuId FROM unstocked) AS f
      LEFT JOIN named AS n USING (skuId) LEFT JOIN sold AS d USING (skuId) LEFT JOIN unstocked AS u USING (skuId)`,
  },
  {
    rule: 'sales-amount-inconsistent',
    title: 'Sales lines with amount 0 or with an amount of the other sign than the quantity',
    why:
      'salesAmountInclVat is what the customer paid, negative on a return like quantitySold: a zero or an ' +
      'opposite amount makes the sale prices, the revenue and the value of lost sales wrong.',
    grouped: true,
    sql: `
      SELECT 'Sales (SKU)', skuId,
             concat_ws('; ',
               CASE WHEN zero > 0 THEN zero || ' line(s) with salesAmountInclVat 0 for '
                                       || ${units('zero_units')} || ' units' END,
               CASE WHEN opposite > 0 THEN opposite || ' line(s) whose salesAmountInclVat has the other sign '
                                           || 'than quantitySold' END),
             sample, zero + opposite
      FROM (SELECT skuId, count(*) FILTER (WHERE salesAmountInclVat = 0) AS zero,
                   sum(quantitySold) FILTER (WHERE salesAmountInclVat = 0) AS zero_units,
                   count(*) FILTER (WHERE salesAmountInclVat <> 0) AS opposite, ${FIRST_SALES} AS sample
            FROM ${LIVE.lines}
            WHERE quantitySold <> 0 AND sign(salesAmountInclVat) <> sign(quantitySold)
            GROUP BY skuId)`,
  },
  {
    rule: 'sales-quantity-outlier',
    title: "Sales lines far above the SKU's usual quantity",
    why:
      `A line whose quantity is over ${OUTLIER.timesMedian} × the SKU's median line (and over the median + ` +
      `${OUTLIER.madsAboveMedian} × its median absolute deviation, with at least ${OUTLIER.minLines} lines) is ` +
      'a typo or a bulk deal: the forecast reads it as customer demand.',
    grouped: true,
    sql: `
      WITH usual AS (
        SELECT skuId, count(*) AS lines, median(abs(quantitySold)) AS median_q, mad(abs(quantitySold)) AS mad_q,
               greatest(${OUTLIER.timesMedian} * median_q, median_q + ${OUTLIER.madsAboveMedian} * mad_q) AS bound
        FROM ${LIVE.lines} WHERE quantitySold <> 0
        GROUP BY skuId HAVING count(*) >= ${OUTLIER.minLines}),
      far AS (
        SELECT l._salesId, l.quantitySold, u.*
        FROM ${LIVE.lines} AS l JOIN usual AS u USING (skuId) WHERE abs(l.quantitySold) > u.bound)
      SELECT 'Sales (SKU)', skuId,
             count(*) || ' line(s) above ' || ${units('any_value(bound)')} || ' units (median line '
               || ${units('any_value(median_q)')} || ', MAD ' || ${units('any_value(mad_q)')} || ', '
               || any_value(lines) || ' lines); worst ' || ${units('arg_max(quantitySold, abs(quantitySold))')}
               || ' in sale ' || arg_max(_salesId, abs(quantitySold)),
             ${salesOf('arg_max(_salesId, abs(quantitySold), 3)')}, max(abs(quantitySold)) / any_value(bound)
      FROM far GROUP BY skuId`,
  },
  {
    rule: 'cancellations-as-returns',
    title: 'Cancelled sales among the negative lines',
    why:
      `A negative line that undoes a sale of the same SKU at the same location within ${CANCELLATION_MINUTES} ` +
      'minutes, with the same quantity and amount, is a cancellation; other negative lines are returns. The ' +
      'backtest puts the units of both back into stock alike, and still counts the cancelled sale as sold. ' +
      'quantityCancelled is to be deprecated: send 0, and leave voided sales out.',
    grouped: true,
    sql: `
      WITH sold AS (
        SELECT salesLineId, locationId, skuId, quantitySold AS q, salesAmountInclVat AS amount, salesDateTime AS t
        FROM ${LIVE.lines} WHERE quantitySold > 0),
      reversed AS (
        SELECT salesLineId, locationId, skuId, -quantitySold AS q, -salesAmountInclVat AS amount, salesDateTime AS t
        FROM ${LIVE.lines} WHERE quantitySold < 0),
      -- Each negative line against the latest matching sale before it; a sale is cancelled once at most.
      cancelled AS (
        SELECT r.salesLineId
        FROM reversed AS r ASOF JOIN sold AS s
          ON s.locationId = r.locationId AND s.skuId = r.skuId AND s.q = r.q AND s.amount = r.amount AND s.t <= r.t
        WHERE r.t <= s.t + INTERVAL (${CANCELLATION_MINUTES}) MINUTE
        QUALIFY row_number() OVER (PARTITION BY s.salesLineId ORDER BY r.t, r.salesLineId) = 1),
      per AS (
        SELECT l.locationId,
               count(c.salesLineId) AS cancellations,
               -sum(l.quantitySold) FILTER (WHERE c.salesLineId IS NOT NULL) AS cu,
               count(*) FILTER (WHERE l.quantitySold < 0 AND c.salesLineId IS NULL) AS returns,
               -sum(l.quantitySold) FILTER (WHERE l.quantitySold < 0 AND c.salesLineId IS NULL) AS ru,
               count(*) FILTER (WHERE l.quantityCancelled > 0) AS flagged,
               sum(l.quantityCancelled) FILTER (WHERE l.quantityCancelled > 0) AS fu,
               arg_min(l._salesId, l.salesDateTime, 3)
                 FILTER (WHERE c.salesLineId IS NOT NULL OR l.quantityCancelled > 0) AS first
        FROM ${LIVE.lines} AS l LEFT JOIN cancelled AS c USING (salesLineId)
        WHERE l.quantitySold < 0 OR l.quantityCancelled > 0
        GROUP BY l.locationId)
      SELECT 'Sales (location)', locationId,
             concat_ws('; ',
               cancellations || ' cancellation(s) of ' || ${units('coalesce(cu, 0)')} || ' units, '
                 || returns || ' return(s) of ' || ${units('coalesce(ru, 0)')} || ' units',
               CASE WHEN flagged > 0 THEN flagged || ' line(s) with quantityCancelled > 0, '
                                          || ${units('fu')} || ' units' END),
             ${salesOf('first')}, cancellations + flagged
      FROM per WHERE cancellations > 0 OR flagged > 0`,
  },
  {
    rule: 'sales-without-stock',
    title: 'Locations that sell but keep no stock',
    why:
      'Stock is kept per location. Where sales come without any stock level or stock mutation, every sale takes ' +
      'stock that was never there; send the stock of the location, or book its sales where the goods are. An ' +
      "online shop that ships from a warehouse's stock is said so in the scenario's settings (fulfilledFrom), " +
      "and a backtest then serves its sales from the warehouse's stock.",
    grouped: true,
    sql: `
      SELECT 'Sales (location)', locationId,
             count(DISTINCT _salesId) || ' sale(s), ' || count(*) || ' line(s), ' || ${units('sum(quantitySold)')}
               || ' units net of ' || count(DISTINCT skuId) || ' SKU(s), ' || ${day('min(salesDateTime)')}
               || ' … ' || ${day('max(salesDateTime)')} || '; no stock level and no stock mutation',
             ${FIRST_SALES}, count(*)
      FROM ${LIVE.lines} WHERE locationId NOT IN ${STOCKED_LOCATIONS}
      GROUP BY locationId`,
  },
];
