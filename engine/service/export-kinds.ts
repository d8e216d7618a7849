/** What of a backtest run can be exported, and to which file formats: named apart from the export itself. */
export const EXPORT_PARTS = ['daily', 'locations', 'styles', 'style-days', 'transfers'] as const;
export type ExportPart = (typeof EXPORT_PARTS)[number];

export const EXPORT_FORMATS = ['csv', 'parquet', 'arrow'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
