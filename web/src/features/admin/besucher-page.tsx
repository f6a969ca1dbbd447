/** Placeholder until the screen is built. */
export function AdminBesucherPage() {
  return <section className="flex-1" />;
}
