/** Units as the drill-down screens read them: whole where whole, one decimal where the engine estimated. */
export const units = (v: number) => v.toLocaleString('en', { maximumFractionDigits: 1 });

/** The engine's transfer kinds in the words of the screens. */
export const TRANSFER_KIND: Record<string, string> = {
  Replenishment: 'replenishment',
  InitialDistribution: 'initial distribution',
  Redistribution: 'redistribution',
};
