import { Link } from '@tanstack/react-router';
import { siteEventFacts } from '../lib/event-format';
import { PrimaryActionLink, useCallToAction, VISITOR_LABEL } from './call-to-action';
import { CastleMark } from './icons';
import { SocialLinks } from './social-links';
import { getSiteConfig } from '../lib/site-config';

const linkClass = 'text-ash-300 transition-colors hover:text-gold-200';

/** Site footer on every page: the event in brief, the main links and the organizer's profiles. */
export function SiteFooter() {
  const facts = siteEventFacts(getSiteConfig());
  const cta = useCallToAction();

  return (
    <footer className="border-t border-gold-500/15 bg-night-950">
      <div className="mx-auto grid max-w-6xl gap-10 px-5 py-14 sm:px-6 sm:grid-cols-2 lg:grid-cols-[1.4fr_1fr_1fr]">
        <div className="flex flex-col gap-4">
          <p className="flex items-center gap-2.5 font-display text-xl tracking-[0.22em] text-gold-300 uppercase">
            <CastleMark className="size-5" />
            {facts.name}
          </p>
          <p className="max-w-sm text-sm leading-relaxed text-ash-400">
            Das Tuning-Treffen vor historischer Schlosskulisse in Sachsen – für individuell aufgebaute
            Fahrzeuge und alle, die sie lieben.
          </p>
          <SocialLinks
            className="flex gap-3"
            linkClassName="flex size-10 items-center justify-center rounded-full border border-gold-500/30 text-gold-300 transition-colors hover:border-gold-400 hover:bg-gold-500/10"
            linkLabel={(link) => `${facts.name} auf ${link.label} (öffnet in neuem Tab)`}
          >
            {(_link, SocialIcon) => <SocialIcon />}
          </SocialLinks>
        </div>

        <div className="flex flex-col gap-3 text-sm">
          <h2 className="text-xs tracking-[0.25em] text-gold-400 uppercase">Das Event</h2>
          <p className="text-parchment">
            <time dateTime={facts.startIso}>{facts.date}</time>
          </p>
          <p className="text-ash-300">{facts.time}</p>
          <p className="text-ash-300">{facts.place}</p>
        </div>

        <nav aria-label="Fußzeile" className="flex flex-col gap-3 text-sm">
          <h2 className="text-xs tracking-[0.25em] text-gold-400 uppercase">Mitmachen</h2>
          <PrimaryActionLink action={cta.primary} className={linkClass} />
          {cta.visitorAside ? (
            <Link to="/visitor-registration" className={linkClass}>
              {VISITOR_LABEL}
            </Link>
          ) : null}
          <Link to="/register" className={linkClass}>
            Registrieren
          </Link>
          <Link to="/" hash="faq" className={linkClass}>
            Häufige Fragen
          </Link>
        </nav>
      </div>

      <div className="border-t border-white/5">
        <div className="mx-auto flex max-w-6xl flex-col gap-3 px-5 py-6 sm:px-6 text-xs text-ash-400 sm:flex-row sm:items-center sm:justify-between">
          <span>
            © {facts.year} {facts.name} · Tuning-Treffen am Schloss
          </span>
          <nav aria-label="Rechtliches" className="flex gap-5">
            <Link to="/impressum" className={linkClass}>
              Impressum
            </Link>
            <Link to="/datenschutz" className={linkClass}>
              Datenschutz
            </Link>
          </nav>
        </div>
      </div>
    </footer>
  );
}
