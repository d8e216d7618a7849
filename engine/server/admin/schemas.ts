/** Schemas the admin routes share: ids in paths, dates, pages. */
import { Type } from '@sinclair/typebox';
import { DateOnly } from '../../model/fields.js';
import { parseDay } from '../../model/datetime.js';
import { PAGE_MAX, type Workbench } from '../../service/workbench.js';

/** Largest page the admin API gives: the service's. */
export const ADMIN_PAGE_LIMIT = PAGE_MAX;

/** An id as a path segment carries it (decoded): no longer than any id the workspace keeps. */
export { Id } from '../../model/fields.js';

export const DayText = (description: string) => DateOnly(`${description} (YYYY-MM-DD).`);

export const PageQuery = {
  offset: Type.Optional(Type.Integer({ minimum: 0, description: 'Rows to skip (default 0).' })),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: ADMIN_PAGE_LIMIT, description: 'Rows to give (default 100).' }),
  ),
};

/** A date its schema (`DayText`) let through, as a day number. */
export function dayOf(text: string): number {
  const day = parseDay(text);
  if (day === undefined) throw new Error(`"${text}" passed as a date`);
  return day;
}

/** What a service method answers, for the routes that answer it as it is. */
export type ServiceAnswer<K extends keyof Workbench> = Workbench[K] extends (...args: never[]) => infer R
  ? Awaited<R>
  : never;
