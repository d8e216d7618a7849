/** A part of an address or a query as it reads decoded; one that is not valid percent-encoding, as it stands. */
export function decodeOrAsIs(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
