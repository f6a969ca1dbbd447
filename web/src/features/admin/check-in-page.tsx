/** Placeholder until the screen is built. */
export function AdminCheckInPage() {
  return <section className="flex-1" />;
}
