/** Placeholder until the screen is built. */
export function AdminQuartettPage() {
  return <section className="flex-1" />;
}
