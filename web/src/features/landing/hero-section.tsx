import { Link } from '@tanstack/react-router';
import { buttonClass } from '../../components/ui/button';
import { Countdown } from './countdown';
import type { SiteEventFacts } from '../../lib/event-format';
import { CastleSilhouette, HeroSky } from './hero-backdrop';
import { CalendarIcon, ClockIcon, PinIcon } from '../../components/icons';
import { HeroIntroduction } from './public-texts';
import { PrimaryActionLink, useCallToAction, VISITOR_LABEL } from '../../components/call-to-action';

/** Hero: name, claim, the event in one line, the countdown and the calls to action of the edition's phase. */
export function HeroSection({
  facts,
  lookBackYear,
  introduction,
}: {
  facts: SiteEventFacts;
  /** The edition before this one: its 'Rückblick' is linked. */
  lookBackYear?: number | null;
  /** The edition's introduction as HTML; null: the default. */
  introduction?: string | null;
}) {
  const cta = useCallToAction();
  return (
    <section
      aria-labelledby="hero-title"
      // The landing page is complete as the server rendered it: the app is loaded when needed.
      data-hydrate="on-demand"
      className="relative isolate -mt-16 flex flex-col overflow-x-clip pt-16 md:-mt-20 md:pt-20"
    >
      <HeroSky />
      <div className="relative z-10 mx-auto flex w-full max-w-4xl flex-col items-center gap-7 px-5 pt-10 text-center sm:gap-8 sm:px-6 sm:pt-14">
        <p className="text-xs font-semibold tracking-[0.4em] text-gold-400 uppercase">
          Tuning-Treffen am Schloss
        </p>

        <div className="flex flex-col items-center gap-5">
          <h1
            id="hero-title"
            className="bg-linear-to-b from-gold-200 via-gold-400 to-gold-600 bg-clip-text pb-1 font-display text-[3.4rem] leading-none tracking-wide text-transparent sm:text-8xl"
          >
            {facts.name}
          </h1>
          <HeroIntroduction html={introduction} />
        </div>

        <ul className="flex flex-col items-center gap-x-6 gap-y-2 text-sm text-parchment sm:flex-row sm:text-base">
          <li className="flex items-center gap-2">
            <CalendarIcon className="size-4 text-gold-400" />
            <time dateTime={facts.startIso}>{facts.date}</time>
          </li>
          <li className="flex items-center gap-2">
            <ClockIcon className="size-4 text-gold-400" />
            {facts.time}
          </li>
          <li className="flex items-center gap-2">
            <PinIcon className="size-4 text-gold-400" />
            {facts.place}
          </li>
        </ul>

        <Countdown
          eventName={facts.name}
          eventStart={facts.startIso}
          eventEnd={facts.endIso}
          year={facts.year}
          runningNote={`Heute, ${facts.time} · ${facts.place}`}
          endedNote="Schön, dass ihr dabei wart. Im Rückblick seht ihr die Fahrzeuge, die dabei waren."
        />

        {lookBackYear && !(cta.primary.kind === 'lookBack' && cta.primary.year === lookBackYear) ? (
          <p className="text-sm text-ash-300">
            <Link
              to="/rueckblick/$year"
              params={{ year: String(lookBackYear) }}
              className="font-semibold text-gold-200 underline underline-offset-4 hover:text-gold-100"
            >
              Rückblick {lookBackYear}
            </Link>
            : die Fahrzeuge des letzten Treffens.
          </p>
        ) : null}

        <div className="flex w-full flex-col items-center gap-3">
          {cta.note ? (
            <p data-testid="cta-note" className="text-sm text-ash-300 sm:text-base">
              {cta.note}
            </p>
          ) : null}
          <div className="flex w-full flex-col items-stretch justify-center gap-3 sm:w-auto sm:flex-row sm:items-center">
            <PrimaryActionLink
              action={cta.primary}
              className={buttonClass('primary', 'px-8 py-3.5 text-base')}
            />
            {cta.visitorAside ? (
              <Link
                to="/visitor-registration"
                className={buttonClass('secondary', 'bg-night-950/40 px-8 py-3.5 text-base backdrop-blur')}
              >
                {VISITOR_LABEL}
              </Link>
            ) : null}
          </div>
        </div>
      </div>
      <CastleSilhouette className="relative left-1/2 -mt-16 w-[760px] -translate-x-1/2 sm:-mt-28 sm:w-[960px] lg:-mt-40 lg:w-[1100px]" />
    </section>
  );
}
