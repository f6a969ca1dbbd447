/** Placeholder until the screen is built. */
export function AdminDashboardPage() {
  return <section className="flex-1" />;
}
