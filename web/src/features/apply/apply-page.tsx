/** Placeholder until the screen is built. */
export function ApplyPage() {
  return <section className="mx-auto w-full max-w-3xl flex-1 px-6 py-16" />;
}
