/**
 * The network: one or two warehouses, the brick stores (each with a town, an address in one of the spec's three
 * forms and usually a GLN) and exactly one online channel. Stores differ in size (log-normal), which drives both
 * their demand and how much of the range they carry.
 */
import { CHAIN } from './masterdata.js';
import { gs1 } from './gs1.js';
import type { GenerateOptions } from './options.js';
import { Random } from './rng.js';

export type LocationKind = 'warehouse' | 'store' | 'online';

export interface LocationDef {
  index: number;
  locationId: string;
  kind: LocationKind;
  /** Demand multiplier: 1 is a median store. */
  size: number;
  /** Index of the warehouse that supplies it (itself for a warehouse). */
  warehouse: number;
  record: Record<string, unknown>;
}

export interface Network {
  locations: LocationDef[];
  warehouses: number[];
  /** Stores and the online channel: everything that sells. */
  outlets: number[];
  online: number;
  pitfalls: { incompleteAddress: string; sameName: [string, string] };
}

/** Dutch towns: postal code area and centre. The chain opens in them in a seeded order. */
const TOWNS: readonly [string, string, number, number][] = [
  ['Amsterdam', '1012', 52.3731, 4.8922],
  ['Rotterdam', '3011', 51.9225, 4.4792],
  ['Den Haag', '2511', 52.0786, 4.2886],
  ['Utrecht', '3511', 52.0907, 5.1214],
  ['Eindhoven', '5611', 51.4416, 5.4697],
  ['Groningen', '9711', 53.2194, 6.5665],
  ['Tilburg', '5038', 51.5555, 5.0913],
  ['Almere', '1315', 52.3508, 5.2647],
  ['Breda', '4811', 51.5719, 4.7683],
  ['Nijmegen', '6511', 51.8426, 5.8546],
  ['Apeldoorn', '7311', 52.2112, 5.9699],
  ['Haarlem', '2011', 52.3874, 4.6462],
  ['Arnhem', '6811', 51.9851, 5.8987],
  ['Enschede', '7511', 52.2215, 6.8937],
  ['Amersfoort', '3811', 52.1561, 5.3878],
  ['Zaandam', '1506', 52.442, 4.8292],
  ["'s-Hertogenbosch", '5211', 51.6978, 5.3037],
  ['Zwolle', '8011', 52.5168, 6.083],
  ['Leiden', '2311', 52.1601, 4.497],
  ['Maastricht', '6211', 50.8514, 5.691],
  ['Dordrecht', '3311', 51.8133, 4.6901],
  ['Zoetermeer', '2711', 52.0575, 4.4931],
  ['Leeuwarden', '8911', 53.2012, 5.7999],
  ['Alkmaar', '1811', 52.6324, 4.7534],
  ['Delft', '2611', 52.0116, 4.3571],
  ['Deventer', '7411', 52.2661, 6.1552],
  ['Hilversum', '1211', 52.2292, 5.1669],
  ['Heerlen', '6411', 50.8882, 5.9795],
  ['Venlo', '5911', 51.3704, 6.1724],
  ['Gouda', '2801', 52.0115, 4.7105],
  ['Assen', '9401', 52.9925, 6.5649],
  ['Roosendaal', '4701', 51.5308, 4.4653],
  ['Helmond', '5701', 51.4793, 5.657],
  ['Oss', '5341', 51.765, 5.518],
  ['Middelburg', '4331', 51.4988, 3.6136],
  ['Amstelveen', '1181', 52.3114, 4.8701],
  ['Purmerend', '1441', 52.505, 4.9597],
  ['Emmen', '7811', 52.7858, 6.8976],
  ['Ede', '6711', 52.0402, 5.6649],
  ['Hoorn', '1621', 52.6425, 5.0597],
  ['Schiedam', '3111', 51.9192, 4.3989],
  ['Almelo', '7607', 52.3567, 6.6625],
  ['Hengelo', '7551', 52.2661, 6.7931],
  ['Lelystad', '8232', 52.5185, 5.4714],
  ['Harderwijk', '3841', 52.3417, 5.6206],
  ['Zeist', '3701', 52.0894, 5.2331],
  ['Veenendaal', '3901', 52.0286, 5.558],
  ['Bergen op Zoom', '4611', 51.4949, 4.2911],
  ['Kampen', '8261', 52.555, 5.9114],
  ['Sittard', '6131', 50.9983, 5.8697],
  ['Weert', '6001', 51.2517, 5.7069],
  ['Doetinchem', '7001', 51.965, 6.2886],
  ['Goes', '4461', 51.5042, 3.8889],
  ['Den Helder', '1781', 52.9563, 4.7608],
  ['Vlissingen', '4381', 51.4425, 3.5736],
  ['Woerden', '3441', 52.0857, 4.883],
  ['Heerenveen', '8441', 52.9601, 5.9202],
  ['Drachten', '9201', 53.103, 6.0984],
  ['Tiel', '4001', 51.8861, 5.4293],
  ['Wageningen', '6701', 51.9692, 5.6654],
];
/** Bigger chains open a second store in a district of a city they are already in. */
const DISTRICTS = ['Zuid', 'Noord', 'Oost', 'West', 'Centrum', 'Haven', 'Station', 'Winkelhof'];
const STREETS = [
  'Kalverstraat',
  'Hoogstraat',
  'Marktstraat',
  'Lange Elisabethstraat',
  'Grote Markt',
  'Dorpsstraat',
  'Kerkstraat',
  'Stationsweg',
  'Molenstraat',
  'Breestraat',
  'Nieuwstraat',
  'Oudegracht',
  'Wilhelminastraat',
  'Korte Putstraat',
  'Vismarkt',
  'Hoofdstraat',
  'Koningstraat',
  'Brinkstraat',
  'Steenstraat',
  'Haarlemmerstraat',
];
const POSTCODE_LETTERS = 'ABCEGHJKLMNPRTVWXZ';

/** GS1 company prefix of the chain's GLNs (13 digits = prefix + 5-digit location reference + check). */
const GLN_PREFIX = '8712345';

const ROUND5 = (x: number) => Math.round(x * 1e5) / 1e5;

export function buildNetwork(opts: GenerateOptions): Network {
  const rng = new Random(opts.seed, 'locations');
  const locations: LocationDef[] = [];
  const add = (l: Omit<LocationDef, 'index'>) => locations.push({ index: locations.length, ...l });
  const postcode = (prefix: string) => `${prefix} ${rng.pick([...POSTCODE_LETTERS])}${rng.pick([...POSTCODE_LETTERS])}`;

  const whTowns = [
    ['Tilburg', '5047', 'Ringbaan-Noord'],
    ['Zwolle', '8028', 'Hessenweg'],
  ];
  for (let w = 0; w < opts.warehouses; w++) {
    const id = `WH-0${w + 1}`;
    const [city, pc, street] = whTowns[w];
    add({
      locationId: id,
      kind: 'warehouse',
      size: 0,
      warehouse: w,
      record: {
        locationId: id,
        code: String(9001 + w),
        name: `${CHAIN} Distribution Centre ${city}`,
        gln: gs1(`${GLN_PREFIX}0000${w + 1}`),
        streetName: street,
        houseNo: String(100 + 20 * w),
        postalCode: postcode(pc),
        city,
        country: 'NL',
        email: `dc${w + 1}@nordvik.example`,
        dateOpened: '2005-03-01T00:00:00.000Z',
      },
    });
  }

  // Every town once before any town gets a second (district) store, so names stay "chain + town" and unique.
  const towns = rng.shuffle([...TOWNS]);
  const places: { town: (typeof TOWNS)[number]; district?: string }[] = towns.map((town) => ({ town }));
  // The 25 first towns' districts come first, then the other towns': a chain of up to 260 stores is named as before.
  for (const some of [towns.slice(0, 25), towns.slice(25)])
    for (const district of DISTRICTS) for (const town of some) places.push({ town, district });
  // Pitfall: ST-004 is a second store in ST-003's town under exactly the same name.
  places[3] = places[2];
  if (opts.stores > places.length) throw new Error(`at most ${places.length} stores have a town`);

  const startMs = Date.parse(`${opts.start}T00:00:00.000Z`);
  const earliest = Date.UTC(2008, 0, 1);
  const sizes: number[] = [];
  for (let s = 0; s < opts.stores; s++) {
    const n = String(s + 1).padStart(3, '0');
    const id = `ST-${n}`;
    const { town, district } = places[s];
    const [city, pc, lat, lon] = town;
    const size = rng.logNormal(1, 0.45);
    sizes.push(size);
    const opened =
      earliest + Math.floor((rng.next() * (startMs - 90 * 86_400_000 - earliest)) / 86_400_000) * 86_400_000;
    const record: Record<string, unknown> = {
      locationId: id,
      code: String(1000 + s + 1),
      name: `${CHAIN} ${city}${district ? ` ${district}` : ''}`,
    };
    if (rng.chance(0.9)) record.gln = gs1(`${GLN_PREFIX}1${n.padStart(4, '0')}`);
    const street = rng.pick(STREETS);
    const houseNo = String(rng.int(1, 240));
    const form = rng.weighted([0.7, 0.15, 0.15]);
    if (form === 0) {
      Object.assign(record, { streetName: street, houseNo });
      if (rng.chance(0.15)) record.houseNoAddition = rng.pick(['A', 'B', 'bis', '-1']);
      Object.assign(record, { postalCode: postcode(pc), city });
    } else if (form === 1) {
      record.address = `${street} ${houseNo}, ${postcode(pc)} ${city}`;
    } else {
      record.latitude = ROUND5(lat + rng.uniform(-0.01, 0.01));
      record.longitude = ROUND5(lon + rng.uniform(-0.01, 0.01));
    }
    record.country = 'NL';
    record.email = `store${n}@nordvik.example`;
    record.dateOpened = new Date(opened).toISOString();
    add({ locationId: id, kind: 'store', size, warehouse: s % opts.warehouses, record });
  }

  // Pitfall: ST-002 sends only part of form (a).
  const st2 = locations.find((l) => l.locationId === 'ST-002')!.record;
  for (const k of ['address', 'latitude', 'longitude', 'postalCode', 'houseNo', 'houseNoAddition']) delete st2[k];
  Object.assign(st2, { streetName: rng.pick(STREETS), city: places[1].town[0], country: 'NL' });
  for (const l of locations) reorder(l.record);

  // The webshop sells as much as a quarter of the stores together, and never less than a good store.
  const storeTotal = sizes.reduce((a, b) => a + b, 0);
  const online = locations.length;
  add({
    locationId: 'WEB-01',
    kind: 'online',
    size: Math.max(1.5, 0.25 * storeTotal),
    warehouse: 0,
    record: {
      locationId: 'WEB-01',
      code: '8001',
      name: `${CHAIN} Webshop`,
      country: 'NL',
      email: 'webshop@nordvik.example',
      dateOpened: '2014-09-01T00:00:00.000Z',
    },
  });

  return {
    locations,
    warehouses: locations.filter((l) => l.kind === 'warehouse').map((l) => l.index),
    outlets: locations.filter((l) => l.kind !== 'warehouse').map((l) => l.index),
    online,
    pitfalls: { incompleteAddress: 'ST-002', sameName: ['ST-003', 'ST-004'] },
  };
}

/** Field order as in the spec's table, so a pitfall edit does not change how the record reads. */
const FIELD_ORDER = [
  'locationId',
  'code',
  'name',
  'gln',
  'postalCode',
  'address',
  'houseNo',
  'houseNoAddition',
  'streetName',
  'city',
  'country',
  'email',
  'latitude',
  'longitude',
  'dateOpened',
  'dateClosed',
];
function reorder(record: Record<string, unknown>): void {
  const copy = { ...record };
  for (const k of Object.keys(record)) delete record[k];
  for (const k of FIELD_ORDER) if (k in copy) record[k] = copy[k];
}
