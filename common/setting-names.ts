/**
 * A scenario's settings in words, for the screens and the command line alike: a setting's name as a label, and a
 * dotted path (`redistribution.tripCost`) as the words a person reads, the path itself kept for a tooltip.
 */

/** Words for a setting's name: `serviceLevel` → "Service level". */
export function labelOf(name: string): string {
  const words = name.replace(/([A-Z])/g, ' $1').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A setting by its dotted path, in words: `defaults.serviceLevel` → "Service level" (the value every category takes
 * unless it says otherwise), `redistribution.tripCost` → "Redistribution: trip cost".
 */
export function settingName(path: string): string {
  const parts = path.split('.');
  if (parts[0] === 'defaults') parts.shift();
  const last = labelOf(parts[parts.length - 1]);
  return parts.length === 1 ? last : `${parts.slice(0, -1).map(labelOf).join(', ')}: ${last.toLowerCase()}`;
}
