import { Link } from '@tanstack/react-router';
import { buttonClass } from '../../components/ui/button';
import type { SiteEventFacts } from '../../lib/event-format';
import { CalendarIcon, ClockIcon, PinIcon } from '../../components/icons';
import { EventDetails } from './public-texts';

/** Date, place and time of the event, from the site config; the edition's details text. */
export function EventInfoSection({ facts, details }: { facts: SiteEventFacts; details?: string | null }) {
  const items = [
    { label: 'Datum', value: <time dateTime={facts.startIso}>{facts.date}</time>, Icon: CalendarIcon },
    { label: 'Ort', value: facts.place, Icon: PinIcon },
    { label: 'Uhrzeit', value: facts.time, Icon: ClockIcon },
  ];

  return (
    <section
      aria-labelledby="event-title"
      className="border-y border-gold-500/10 bg-night-900/50 py-20 sm:py-28"
    >
      <div className="mx-auto flex max-w-6xl flex-col gap-12 px-5 sm:px-6">
        <EventDetails html={details} />

        <dl className="grid gap-4 md:grid-cols-3">
          {items.map(({ label, value, Icon }) => (
            <div
              key={label}
              className="relative flex flex-col gap-1 rounded-2xl border border-gold-500/20 bg-night-950/70 py-6 pr-6 pl-22"
            >
              <dt className="text-xs font-semibold tracking-[0.25em] text-ash-400 uppercase">
                <span className="absolute top-6 left-6 flex size-12 items-center justify-center rounded-full border border-gold-500/35 bg-gold-500/10 text-gold-300">
                  <Icon className="size-6" />
                </span>
                {label}
              </dt>
              <dd className="font-display text-xl text-parchment">{value}</dd>
            </div>
          ))}
        </dl>

        <div className="flex flex-col items-start gap-4 rounded-2xl border border-white/5 bg-night-950/50 p-6 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-ash-300">
            Kein eigenes Fahrzeug am Start? Merk dich unverbindlich als Besucher vor und erhalte alle Updates
            zum Event.
          </p>
          <Link to="/visitor-registration" className={buttonClass('secondary', 'shrink-0')}>
            Als Besucher vormerken
          </Link>
        </div>
      </div>
    </section>
  );
}
