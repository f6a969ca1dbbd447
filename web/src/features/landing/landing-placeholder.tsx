import { useDocumentMeta } from '../../lib/use-document-meta';

const pageTitle = 'Schlosstreffen – Tuning-Treffen am Schloss';
const pageDescription =
  'Schlosstreffen: das Tuning-Treffen an einem historischen Schloss in Sachsen am 20. Juni 2026. Bewirb dich mit deinem getunten Fahrzeug oder merke dich als Besucher vor.';

/** Placeholder landing page until the full landing sections (spec section 1) are built. */
export function LandingPlaceholder() {
  useDocumentMeta(pageTitle, pageDescription);

  return (
    <section className="relative flex flex-1 items-center">
      <div className="mx-auto flex w-full max-w-4xl flex-col items-center gap-10 px-6 py-24 text-center sm:py-32">
        <p className="text-xs tracking-[0.4em] text-gold-400 uppercase">Tuning-Treffen · Sachsen</p>

        <div className="flex flex-col items-center gap-6">
          <h1 className="bg-linear-to-b from-gold-200 via-gold-400 to-gold-600 bg-clip-text font-display text-6xl tracking-wide text-transparent sm:text-8xl">
            Schlosstreffen
          </h1>
          <p className="max-w-2xl text-lg leading-relaxed text-ash-300 sm:text-xl">
            Das Treffen für individuell getunte Fahrzeuge vor der Kulisse eines historischen Schlosses in
            Sachsen.
          </p>
        </div>

        <div className="flex items-center gap-4 text-gold-500/60" aria-hidden="true">
          <span className="h-px w-16 bg-linear-to-r from-transparent to-gold-500/60" />
          <span className="size-1.5 rotate-45 bg-gold-500/80" />
          <span className="h-px w-16 bg-linear-to-l from-transparent to-gold-500/60" />
        </div>

        <p className="font-display text-2xl text-parchment sm:text-3xl">
          <time dateTime="2026-06-20T10:00">20. Juni 2026, 10:00 – 20:00 Uhr</time>
        </p>

        <p
          role="status"
          className="rounded-full border border-gold-500/30 bg-night-800/70 px-6 py-3 text-sm text-gold-200 shadow-[0_0_40px_-12px_rgba(212,168,72,0.45)] backdrop-blur"
        >
          Die Anmeldung für Fahrzeuge und Besucher öffnet in Kürze.
        </p>
      </div>
    </section>
  );
}
