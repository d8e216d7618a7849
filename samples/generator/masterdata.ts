/**
 * The retailer's fixed vocabulary: brands, the categories of each assortment with their size runs and price points,
 * colours, sizes, collections, themes and vendors. Ids and codes differ on purpose (the spec: codes are business
 * keys, ids are references), except for the one category that carries the "code equals id" pitfall.
 */
import type { Assortment } from './options.js';

export interface MasterRecord {
  id: string;
  code: string;
  description: string;
}

export interface CategoryDef extends MasterRecord {
  /** Size ids of the run, smallest first. */
  sizes: readonly string[];
  /** Shelf prices including VAT, in cents. */
  prices: readonly number[];
  /** Units per style relative to an average style: tees turn over, jackets do not (basics, slow: per SKU). */
  volume: number;
  /** +1 sells in summer, −1 in winter, 0 all year. */
  warmth: number;
  /** Share of the items in the assortment. */
  weight: number;
  names: readonly string[];
  materials: readonly string[];
  palette: readonly string[];
  vendorId: string;
  collections: readonly string[];
  /** Where the best-selling size sits in the run (0 = smallest, 1 = largest). */
  sizePeak: number;
}

export const CHAIN = 'Nordvik';
export const VAT = 21;

export const COLORS: readonly MasterRecord[] = [
  { id: 'CLR-BLK', code: 'BLK', description: 'Black' },
  { id: 'CLR-WHT', code: 'WHT', description: 'White' },
  { id: 'CLR-NAV', code: 'NAV', description: 'Navy' },
  { id: 'CLR-GRY', code: 'GRY', description: 'Grey melange' },
  { id: 'CLR-BEI', code: 'BEI', description: 'Beige' },
  { id: 'CLR-OLV', code: 'OLV', description: 'Olive' },
  { id: 'CLR-BRG', code: 'BRG', description: 'Burgundy' },
  { id: 'CLR-SKY', code: 'SKY', description: 'Sky blue' },
  { id: 'CLR-RED', code: 'RED', description: 'Red' },
  { id: 'CLR-PNK', code: 'PNK', description: 'Pink' },
  { id: 'CLR-CML', code: 'CML', description: 'Camel' },
  { id: 'CLR-IND', code: 'IND', description: 'Indigo denim' },
];

const alpha = ['XS', 'S', 'M', 'L', 'XL', 'XXL'];
const waist = [28, 29, 30, 31, 32, 33, 34, 36];
const dress = [34, 36, 38, 40, 42, 44];
const shoe = [36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46];

export const SIZES: readonly MasterRecord[] = [
  ...alpha.map((s) => ({ id: `SZ-${s}`, code: s, description: s })),
  ...waist.map((w) => ({ id: `SZ-W${w}`, code: `W${w}`, description: `Waist ${w}` })),
  ...dress.map((d) => ({ id: `SZ-D${d}`, code: String(d), description: `Dress size ${d}` })),
  ...shoe.map((e) => ({ id: `SZ-EU${e}`, code: `EU${e}`, description: `Shoe size EU ${e}` })),
  { id: 'SZ-OS', code: 'OS', description: 'One size' },
];

export const SIZE_BY_ID = new Map(SIZES.map((s) => [s.id, s]));

export const BRANDS: readonly (MasterRecord & { weight: number })[] = [
  { id: 'BR-01', code: 'NORDVIK', description: 'Nordvik', weight: 0.55 },
  { id: 'BR-02', code: 'HAVEN', description: 'Haven & Co', weight: 0.2 },
  { id: 'BR-03', code: 'URBANTIDE', description: 'Urban Tide', weight: 0.15 },
  { id: 'BR-04', code: 'FJELL', description: 'Fjell Outdoor', weight: 0.1 },
];

export const COLLECTIONS: readonly MasterRecord[] = [
  { id: 'COLL-ESS', code: 'ESSENTIALS', description: 'Essentials' },
  { id: 'COLL-DEN', code: 'DENIM', description: 'Denim Studio' },
  { id: 'COLL-OCC', code: 'OCCASION', description: 'Occasion' },
  { id: 'COLL-OUT', code: 'OUTDOOR', description: 'Outdoor' },
  { id: 'COLL-EDT', code: 'EDIT', description: 'Studio Edit' },
];

/** Themes per half of the year: the summer drops and the winter drops tell different stories. */
export const THEMES: readonly (MasterRecord & { summer: boolean; winter: boolean })[] = [
  { id: 'THM-01', code: 'COASTAL', description: 'Coastal Summer', summer: true, winter: false },
  { id: 'THM-02', code: 'GARDEN', description: 'Garden Party', summer: true, winter: false },
  { id: 'THM-03', code: 'BASICS', description: 'Back to Basics', summer: true, winter: true },
  { id: 'THM-04', code: 'URBAN', description: 'Urban Utility', summer: false, winter: true },
  { id: 'THM-05', code: 'NORDICKNIT', description: 'Nordic Knit', summer: false, winter: true },
  { id: 'THM-06', code: 'FESTIVE', description: 'Festive Nights', summer: false, winter: true },
];

export const VENDORS: readonly MasterRecord[] = [
  { id: 'VEN-01', code: 'ANATOLIA', description: 'Anatolia Textiles' },
  { id: 'VEN-02', code: 'DHAKA', description: 'Dhaka Garments' },
  { id: 'VEN-03', code: 'DENIMMILLS', description: 'Denim Mills Co' },
  { id: 'VEN-04', code: 'PORTO', description: 'Porto Footwear' },
  { id: 'VEN-05', code: 'VENETO', description: 'Veneto Accessori' },
];

export const CURRENCIES: readonly MasterRecord[] = [{ id: 'local', code: 'LOCAL', description: 'Local currency' }];

const ALL_COLORS = COLORS.map((c) => c.id);
const range = (lo: number, hi: number, step: number) => {
  const out: number[] = [];
  for (let p = lo; p <= hi; p += step) out.push(p);
  return out;
};

/** The category whose code equals its id: one of the listed pitfalls. */
export const PITFALL_CATEGORY_ID = 'MC-ACC';

/** One size, sold in every assortment, so the "code equals id" pitfall is in every run. */
const ACCESSORIES: CategoryDef = {
  id: PITFALL_CATEGORY_ID,
  code: PITFALL_CATEGORY_ID,
  description: 'Accessories',
  sizes: ['SZ-OS'],
  prices: range(1995, 3995, 500),
  volume: 0.8,
  warmth: 0,
  weight: 0.14,
  sizePeak: 0,
  names: [
    'Wool Beanie',
    'Leather Belt',
    'Canvas Tote',
    'Silk Scarf',
    'Baseball Cap',
    'Knitted Scarf',
    'Card Holder',
    'Sunglasses',
  ],
  materials: ['Wool', 'Leather', 'Cotton canvas', 'Silk'],
  palette: ALL_COLORS,
  vendorId: 'VEN-05',
  collections: ['COLL-ESS', 'COLL-EDT'],
};

/** Fashion: seasonal clothing with full size runs (and accessories). */
export const FASHION_CATEGORIES: readonly CategoryDef[] = [
  {
    id: 'MC-TSH',
    code: 'TSHIRTS',
    description: 'T-shirts',
    sizes: alpha.map((s) => `SZ-${s}`),
    prices: range(1995, 3495, 500),
    volume: 1.5,
    warmth: 1,
    weight: 0.18,
    sizePeak: 0.5,
    names: [
      'Slim Fit Tee',
      'Relaxed Tee',
      'Organic Crew Tee',
      'V-Neck Tee',
      'Longsleeve Tee',
      'Pocket Tee',
      'Boxy Tee',
      'Breton Stripe Tee',
      'Henley Tee',
      'Graphic Tee',
    ],
    materials: ['Organic cotton', 'Cotton jersey', 'Cotton-modal', 'Slub cotton'],
    palette: ALL_COLORS,
    vendorId: 'VEN-01',
    collections: ['COLL-ESS', 'COLL-EDT'],
  },
  {
    id: 'MC-SHI',
    code: 'SHIRTS',
    description: 'Shirts',
    sizes: ['S', 'M', 'L', 'XL', 'XXL'].map((s) => `SZ-${s}`),
    prices: range(3995, 6995, 1000),
    volume: 1.0,
    warmth: 0,
    weight: 0.12,
    sizePeak: 0.4,
    names: [
      'Oxford Shirt',
      'Linen Shirt',
      'Poplin Shirt',
      'Flannel Overshirt',
      'Denim Shirt',
      'Camp Collar Shirt',
      'Grandad Shirt',
      'Striped Shirt',
    ],
    materials: ['Cotton poplin', 'Linen', 'Cotton flannel', 'Oxford cotton'],
    palette: ['CLR-WHT', 'CLR-SKY', 'CLR-NAV', 'CLR-BEI', 'CLR-OLV', 'CLR-BLK', 'CLR-PNK'],
    vendorId: 'VEN-02',
    collections: ['COLL-ESS', 'COLL-EDT'],
  },
  {
    id: 'MC-JNS',
    code: 'JEANS',
    description: 'Jeans',
    sizes: waist.map((w) => `SZ-W${w}`),
    prices: range(5995, 9995, 1000),
    volume: 1.2,
    warmth: 0,
    weight: 0.12,
    sizePeak: 0.5,
    names: [
      'Slim Jeans',
      'Straight Jeans',
      'Tapered Jeans',
      'Wide Leg Jeans',
      'Bootcut Jeans',
      'Mom Jeans',
      'Skinny Jeans',
      'Carpenter Jeans',
    ],
    materials: ['Stretch denim', 'Rigid denim', 'Organic denim'],
    palette: ['CLR-IND', 'CLR-BLK', 'CLR-GRY', 'CLR-WHT', 'CLR-BEI'],
    vendorId: 'VEN-03',
    collections: ['COLL-DEN'],
  },
  {
    id: 'MC-DRS',
    code: 'DRESSES',
    description: 'Dresses',
    sizes: dress.map((d) => `SZ-D${d}`),
    prices: range(4995, 11995, 1000),
    volume: 0.9,
    warmth: 1,
    weight: 0.12,
    sizePeak: 0.4,
    names: [
      'Wrap Dress',
      'Slip Dress',
      'Shirt Dress',
      'Midi Dress',
      'Maxi Dress',
      'Knit Dress',
      'Tiered Dress',
      'Sweater Dress',
    ],
    materials: ['Viscose', 'Linen blend', 'Satin', 'Cotton voile'],
    palette: ['CLR-BLK', 'CLR-RED', 'CLR-PNK', 'CLR-NAV', 'CLR-BEI', 'CLR-OLV', 'CLR-BRG', 'CLR-SKY'],
    vendorId: 'VEN-02',
    collections: ['COLL-OCC', 'COLL-EDT'],
  },
  {
    id: 'MC-KNT',
    code: 'KNITWEAR',
    description: 'Knitwear',
    sizes: ['XS', 'S', 'M', 'L', 'XL'].map((s) => `SZ-${s}`),
    prices: range(4995, 8995, 1000),
    volume: 0.9,
    warmth: -1,
    weight: 0.12,
    sizePeak: 0.5,
    names: [
      'Merino Crewneck',
      'Cable Knit Sweater',
      'Cardigan',
      'Rollneck',
      'Half-Zip Knit',
      'Chunky Knit',
      'Fine Knit Polo',
      'Knitted Vest',
    ],
    materials: ['Merino wool', 'Lambswool', 'Cotton-cashmere', 'Recycled wool'],
    palette: ['CLR-GRY', 'CLR-NAV', 'CLR-CML', 'CLR-BRG', 'CLR-BEI', 'CLR-BLK', 'CLR-OLV'],
    vendorId: 'VEN-01',
    collections: ['COLL-ESS', 'COLL-EDT'],
  },
  {
    id: 'MC-JKT',
    code: 'JACKETS',
    description: 'Jackets',
    sizes: ['S', 'M', 'L', 'XL', 'XXL'].map((s) => `SZ-${s}`),
    prices: range(8995, 14995, 1000),
    volume: 0.6,
    warmth: -1,
    weight: 0.1,
    sizePeak: 0.4,
    names: [
      'Puffer Jacket',
      'Parka',
      'Trench Coat',
      'Bomber Jacket',
      'Denim Jacket',
      'Wool Coat',
      'Rain Jacket',
      'Field Jacket',
    ],
    materials: ['Recycled polyester', 'Wool blend', 'Cotton twill', 'Waxed cotton'],
    palette: ['CLR-BLK', 'CLR-NAV', 'CLR-OLV', 'CLR-CML', 'CLR-BEI', 'CLR-GRY'],
    vendorId: 'VEN-03',
    collections: ['COLL-OUT', 'COLL-ESS'],
  },
  {
    id: 'MC-SHO',
    code: 'SHOES',
    description: 'Shoes',
    sizes: shoe.map((e) => `SZ-EU${e}`),
    prices: range(6995, 12995, 1000),
    volume: 0.6,
    warmth: 0,
    weight: 0.1,
    sizePeak: 0.45,
    names: [
      'Leather Sneaker',
      'Chelsea Boot',
      'Loafer',
      'Canvas Sneaker',
      'Derby Shoe',
      'Hiking Boot',
      'Sandal',
      'Running Shoe',
    ],
    materials: ['Leather', 'Suede', 'Canvas', 'Recycled mesh'],
    palette: ['CLR-WHT', 'CLR-BLK', 'CLR-CML', 'CLR-NAV', 'CLR-GRY', 'CLR-BEI'],
    vendorId: 'VEN-04',
    collections: ['COLL-ESS', 'COLL-OUT'],
  },
  ACCESSORIES,
];

/**
 * Basics: one-size staples on sale all year. In the continuity assortments `volume` scales an SKU's drawn rate and
 * `warmth` is 0: their demand has no season of its own.
 */
const BASICS_CATEGORIES: readonly CategoryDef[] = [
  {
    id: 'MC-SCK',
    code: 'SOCKS',
    description: 'Socks',
    sizes: ['SZ-OS'],
    prices: range(495, 1295, 200),
    volume: 1.3,
    warmth: 0,
    weight: 0.3,
    sizePeak: 0,
    names: ['Everyday Socks 3-Pack', 'Ankle Socks', 'Sport Socks', 'Wool Socks', 'Rib Socks', 'Invisible Socks'],
    materials: ['Combed cotton', 'Bamboo viscose', 'Merino wool'],
    palette: ALL_COLORS,
    vendorId: 'VEN-01',
    collections: ['COLL-ESS'],
  },
  {
    id: 'MC-TGH',
    code: 'TIGHTS',
    description: 'Tights',
    sizes: ['SZ-OS'],
    prices: range(795, 1995, 400),
    volume: 1.0,
    warmth: 0,
    weight: 0.15,
    sizePeak: 0,
    names: ['Sheer Tights 20 Den', 'Opaque Tights 60 Den', 'Fishnet Tights', 'Wool Tights', 'Seamless Tights'],
    materials: ['Polyamide', 'Recycled polyamide', 'Wool blend'],
    palette: ['CLR-BLK', 'CLR-NAV', 'CLR-BEI', 'CLR-GRY', 'CLR-BRG'],
    vendorId: 'VEN-01',
    collections: ['COLL-ESS'],
  },
  {
    id: 'MC-CAP',
    code: 'CAPS',
    description: 'Caps',
    sizes: ['SZ-OS'],
    prices: range(1495, 2995, 500),
    volume: 0.8,
    warmth: 0,
    weight: 0.12,
    sizePeak: 0,
    names: ['Baseball Cap', 'Dad Cap', 'Bucket Hat', 'Rib Beanie', 'Fisherman Beanie'],
    materials: ['Cotton twill', 'Wool blend', 'Recycled polyester'],
    palette: ALL_COLORS,
    vendorId: 'VEN-05',
    collections: ['COLL-ESS', 'COLL-OUT'],
  },
  {
    id: 'MC-BAG',
    code: 'BAGS',
    description: 'Bags',
    sizes: ['SZ-OS'],
    prices: range(1995, 5995, 1000),
    volume: 0.8,
    warmth: 0,
    weight: 0.12,
    sizePeak: 0,
    names: ['Canvas Tote', 'Shopper', 'Crossbody Bag', 'Backpack', 'Belt Bag'],
    materials: ['Cotton canvas', 'Recycled nylon', 'Faux leather'],
    palette: ['CLR-BLK', 'CLR-CML', 'CLR-BEI', 'CLR-NAV', 'CLR-OLV', 'CLR-BRG'],
    vendorId: 'VEN-05',
    collections: ['COLL-ESS', 'COLL-EDT'],
  },
  {
    id: 'MC-SCF',
    code: 'SCARVES',
    description: 'Scarves',
    sizes: ['SZ-OS'],
    prices: range(1995, 3995, 1000),
    volume: 0.9,
    warmth: 0,
    weight: 0.15,
    sizePeak: 0,
    names: ['Knitted Scarf', 'Silk Square', 'Cotton Scarf', 'Wool Shawl', 'Snood'],
    materials: ['Wool', 'Silk', 'Cotton', 'Modal'],
    palette: ALL_COLORS,
    vendorId: 'VEN-05',
    collections: ['COLL-ESS', 'COLL-EDT'],
  },
  ACCESSORIES,
];

/** Slow movers: mostly one size (weights 0.8), a few with a short size run (0.2). */
const SLOW_CATEGORIES: readonly CategoryDef[] = [
  {
    id: 'MC-JWL',
    code: 'JEWELLERY',
    description: 'Jewellery',
    sizes: ['SZ-OS'],
    prices: range(1495, 4995, 500),
    volume: 1.0,
    warmth: 0,
    weight: 0.3,
    sizePeak: 0,
    names: ['Hoop Earrings', 'Chain Necklace', 'Signet Ring', 'Charm Bracelet', 'Pearl Studs', 'Pendant'],
    materials: ['Sterling silver', 'Gold-plated brass', 'Stainless steel'],
    palette: ['CLR-BLK', 'CLR-WHT', 'CLR-BEI', 'CLR-RED', 'CLR-PNK'],
    vendorId: 'VEN-05',
    collections: ['COLL-EDT'],
  },
  {
    id: 'MC-SLG',
    code: 'SMALLLEATHER',
    description: 'Small leather goods',
    sizes: ['SZ-OS'],
    prices: range(2495, 5995, 500),
    volume: 1.0,
    warmth: 0,
    weight: 0.24,
    sizePeak: 0,
    names: ['Card Holder', 'Zip Wallet', 'Key Pouch', 'Passport Cover', 'Coin Purse'],
    materials: ['Leather', 'Suede', 'Recycled leather'],
    palette: ['CLR-BLK', 'CLR-CML', 'CLR-BRG', 'CLR-NAV', 'CLR-OLV'],
    vendorId: 'VEN-04',
    collections: ['COLL-ESS', 'COLL-EDT'],
  },
  {
    id: 'MC-UMB',
    code: 'UMBRELLAS',
    description: 'Umbrellas',
    sizes: ['SZ-OS'],
    prices: range(1995, 3995, 1000),
    volume: 1.0,
    warmth: 0,
    weight: 0.12,
    sizePeak: 0,
    names: ['Folding Umbrella', 'Storm Umbrella', 'Walking Umbrella'],
    materials: ['Recycled polyester', 'Pongee'],
    palette: ['CLR-BLK', 'CLR-NAV', 'CLR-RED', 'CLR-SKY', 'CLR-OLV'],
    vendorId: 'VEN-02',
    collections: ['COLL-OUT'],
  },
  ACCESSORIES,
  {
    id: 'MC-BLT',
    code: 'BELTS',
    description: 'Belts',
    sizes: ['SZ-S', 'SZ-M', 'SZ-L'],
    prices: range(2995, 5995, 1000),
    volume: 1.0,
    warmth: 0,
    weight: 0.12,
    sizePeak: 0.5,
    names: ['Leather Belt', 'Braided Belt', 'Suede Belt', 'Webbing Belt'],
    materials: ['Leather', 'Suede', 'Cotton webbing'],
    palette: ['CLR-BLK', 'CLR-CML', 'CLR-BRG', 'CLR-NAV'],
    vendorId: 'VEN-04',
    collections: ['COLL-ESS'],
  },
  {
    id: 'MC-GLV',
    code: 'GLOVES',
    description: 'Gloves',
    sizes: ['SZ-M', 'SZ-L'],
    prices: range(2495, 4995, 500),
    volume: 1.0,
    warmth: 0,
    weight: 0.08,
    sizePeak: 0.5,
    names: ['Leather Gloves', 'Knitted Gloves', 'Touchscreen Gloves'],
    materials: ['Leather', 'Wool', 'Recycled polyester'],
    palette: ['CLR-BLK', 'CLR-CML', 'CLR-GRY', 'CLR-NAV', 'CLR-BRG'],
    vendorId: 'VEN-04',
    collections: ['COLL-ESS', 'COLL-OUT'],
  },
];

/**
 * The merchandise categories of an assortment; a style's `category` indexes this list. The naive weekly retailer
 * sells the one-size slow movers; the intermittent one all of them, the short size runs included.
 */
export const CATEGORIES: Record<Assortment, readonly CategoryDef[]> = {
  fashion: FASHION_CATEGORIES,
  basics: BASICS_CATEGORIES,
  slow: SLOW_CATEGORIES,
  'slow-naive': SLOW_CATEGORIES.filter((c) => c.sizes.length === 1),
  intermittent: SLOW_CATEGORIES,
};

/** `SS24` / `AW24`: a launch in January–June belongs to spring/summer, July–December to autumn/winter. */
export function seasonOf(year: number, month: number): MasterRecord {
  const yy = String(year % 100).padStart(2, '0');
  const summer = month <= 6;
  const code = `${summer ? 'SS' : 'AW'}${yy}`;
  return { id: `SEA-${code}`, code, description: `${summer ? 'Spring/Summer' : 'Autumn/Winter'} ${year}` };
}
