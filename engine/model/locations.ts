import { type Static } from '@sinclair/typebox';
import { Code, DateTime, Decimal, Entity, Id, Opt, Str } from './fields.js';

export const Location = Entity('Location', ['locationId'], {
  locationId: Id('Unique across all locations. Resend with the same id to update.'),
  code: Code(),
  name: Str(75, 'Clear and unique, for example a chain name plus the town.'),
  gln: Opt(Str(13, 'Global Location Number; echoed in transfer output.')),
  postalCode: Opt(Str(20, 'Address form (a).')),
  address: Opt(Str(125, 'Address form (b): the whole address in one field.')),
  houseNo: Opt(Str(50, 'Address form (a).')),
  houseNoAddition: Opt(Str(20, 'Address form (a).')),
  streetName: Opt(Str(125, 'Address form (a).')),
  city: Opt(Str(50, 'Address form (a).')),
  country: Opt(Str(100, 'Country.')),
  email: Opt(Str(100, 'Used to mail redistribution PDFs to the location.')),
  latitude: Opt(Decimal('Address form (c).', { minimum: -90, maximum: 90 })),
  longitude: Opt(Decimal('Address form (c).', { minimum: -180, maximum: 180 })),
  dateOpened: Opt(DateTime('When the location opened.')),
  dateClosed: Opt(DateTime('When the location closed or will close.')),
});

export type Location = Static<typeof Location>;
