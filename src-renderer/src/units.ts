import { whole } from '../../common/format';

/**
 * Units as the drill-down screens read them: whole, as the data counts them (an average or the engine's estimate
 * rounds; a demand estimate a day is written with `decimal`, where its fraction is the point).
 */
export const units = whole;

/** The engine's transfer kinds in the words of the screens. */
export const TRANSFER_KIND: Record<string, string> = {
  Replenishment: 'replenishment',
  InitialDistribution: 'initial distribution',
  Redistribution: 'redistribution',
};
