export { readStatementFile, readCsvStatement, MAX_STATEMENT_FILE_BYTES } from './read-statement.js';
export { CSV_PRESETS } from './csv.js';
export type { CsvMapping } from './csv.js';
export { ZIP_LIMITS } from './zip.js';
export type { ZipLimits } from './zip.js';
export { STATEMENT_MESSAGES } from './messages.js';
export type * from './types.js';
