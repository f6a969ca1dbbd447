/** `validateSearch` of the pages a mailed link opens: `?token=…`, anything else dropped. */
export function tokenSearch(search: Record<string, unknown>): { token?: string } {
  return typeof search.token === 'string' ? { token: search.token } : {};
}
