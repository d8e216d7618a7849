/** Deterministic API-shaped payloads for the benchmarks. */
export function salesPayload(round: number, sales = 10_000, linesPerSale = 3): { sales: Record<string, unknown>[] } {
  const out: Record<string, unknown>[] = [];
  const base = Date.UTC(2024, 0, 1) + round * 86_400_000;
  for (let i = 0; i < sales; i++) {
    const salesId = `R${round}-${i}`;
    const lines = [];
    for (let l = 0; l < linesPerSale; l++) {
      const qty = (i + l) % 17 === 0 ? -1 : 1;
      lines.push({
        salesLineId: `${salesId}-${l + 1}`,
        skuId: `SKU-${(i * 7 + l * 13) % 3000}`,
        lineNumber: l + 1,
        originalSalesAmountInclVat: 39.95 * qty,
        salesAmountInclVat: 29.95 * qty,
        vatPercentage: 21,
        costPrice: 12.4,
        online: i % 10 === 0,
        quantitySold: qty,
        quantityTransferred: qty,
        quantityCancelled: 0,
      });
    }
    out.push({
      salesId,
      code: `RCPT-${i}`,
      salesDateTime: new Date(base + (i % 600) * 60_000).toISOString(),
      currencyCode: 'LOCAL',
      locationId: `ST-${String(i % 20).padStart(3, '0')}`,
      salesLines: lines,
    });
  }
  return { sales: out };
}

/** Stock levels of 20 stores × `levels / 20` SKUs, dated one minute apart per round so every round adds levels. */
export function stockPayload(round: number, levels = 2_000): { stock: Record<string, unknown>[] } {
  const at = new Date(Date.UTC(2024, 0, 1) + round * 60_000).toISOString();
  return {
    stock: Array.from({ length: levels }, (_, i) => ({
      locationId: `ST-${String(i % 20).padStart(3, '0')}`,
      skuId: `SKU-${Math.floor(i / 20)}`,
      quantity: (i * 7) % 13,
      stockDateTime: at,
    })),
  };
}
