/**
 * Keyset cursors on timestamps: a `timestamptz` column as microseconds since the epoch, as text
 * (exact, unlike JavaScript's milliseconds), and the placeholder that turns such a value back into
 * a `timestamptz` for the comparison that continues after a row.
 */
export const MICROS = (column: string) => `(extract(epoch from ${column}) * 1000000)::bigint::text`;
export const AT_MICROS = `(timestamptz 'epoch' + ?::bigint * interval '1 microsecond')`;
