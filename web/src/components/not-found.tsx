import { Link } from '@tanstack/react-router';

/** Shown for every unknown path, with the fixed English heading '404 Page Not Found'. */
export function NotFound() {
  return (
    <section className="mx-auto flex w-full max-w-6xl flex-1 flex-col items-center justify-center gap-8 px-6 py-24 text-center">
      <h1 className="font-display text-4xl text-parchment sm:text-5xl">404 Page Not Found</h1>
      <Link
        to="/"
        className="rounded-full border border-gold-500/40 px-6 py-2.5 text-sm tracking-wide text-gold-300 transition-colors hover:border-gold-400 hover:bg-gold-500/10"
      >
        Zur Startseite
      </Link>
    </section>
  );
}
