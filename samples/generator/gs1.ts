/** GS1 numbers (EAN-13 barcodes, GLNs) share one check digit rule: weights 3,1,3,… from the right, mod 10. */
export function gs1CheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const digit = body.charCodeAt(body.length - 1 - i) - 48;
    sum += digit * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

/** A 13-digit GS1 number from its 12-digit body. */
export function gs1(body12: string): string {
  if (!/^\d{12}$/.test(body12)) throw new Error(`GS1 body must be 12 digits, got "${body12}"`);
  return body12 + gs1CheckDigit(body12);
}

export function isValidGs1_13(code: string): boolean {
  return /^\d{13}$/.test(code) && gs1CheckDigit(code.slice(0, 12)) === code.charCodeAt(12) - 48;
}
