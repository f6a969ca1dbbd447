import { awardTitle } from '@schlosstreffen/shared';
import type { JuryCeremony, JuryClassPlaces } from '@schlosstreffen/shared/api';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { CarPlaceholderIcon } from '../../../components/icons';
import { Button, buttonClass } from '../../../components/ui/button';
import { LoadError, LoadingBlock } from '../../../components/ui/query-states';
import { AdminOnly } from '../admin-layout';
import { useChosenEdition } from '../edition-switch';
import { editionsQueryOptions } from '../editions-queries';
import { ceremonyQueryOptions } from './jury-queries';

/** Keys that go on (presenter clickers send PageDown) and back (PageUp). */
const FORWARD = new Set(['ArrowRight', ' ', 'Spacebar', 'PageDown', 'Enter']);
const BACK = new Set(['ArrowLeft', 'PageUp']);

/** One entry revealed on a slide: a class's place or the visitors' award's rank. */
interface Reveal {
  place: number;
  startNumber: number;
  name: string;
  imageUrl: string | null;
  /** A line under the name (the award's votes). */
  detail?: string;
}

/** A slide and how many of its entries are shown (from the last place on). */
type Slide =
  | { kind: 'title' }
  | { kind: 'class'; title: string; entries: Reveal[] }
  | { kind: 'award'; title: string; entries: Reveal[] }
  | { kind: 'open'; names: string[] }
  | { kind: 'end' };

export interface CeremonyStep {
  slide: number;
  revealed: number;
}

const placesOf = (juryClass: JuryClassPlaces): Reveal[] =>
  [...juryClass.places].sort((a, b) => a.place - b.place).map((entry) => ({ ...entry }));

/** The slides of the ceremony: a title, each closed class, the classes still open, the award, the end. */
export function ceremonySlides(ceremony: JuryCeremony): Slide[] {
  const slides: Slide[] = [{ kind: 'title' }];
  for (const juryClass of ceremony.classes)
    slides.push({ kind: 'class', title: juryClass.name, entries: placesOf(juryClass) });
  if (ceremony.openClasses.length) slides.push({ kind: 'open', names: ceremony.openClasses });
  if (ceremony.award?.length)
    slides.push({
      kind: 'award',
      title: awardTitle(ceremony.year),
      entries: [...ceremony.award]
        .sort((a, b) => a.rank - b.rank)
        .map((row) => ({
          place: row.rank,
          startNumber: row.startNumber,
          name: row.name,
          imageUrl: null,
          detail: row.votes === 1 ? '1 Stimme' : `${row.votes} Stimmen`,
        })),
    });
  slides.push({ kind: 'end' });
  return slides;
}

/** Every step in order: a slide with its entries revealed one per step, the last place first. */
export function ceremonySteps(slides: readonly Slide[]): CeremonyStep[] {
  return slides.flatMap((slide, index) => {
    const count = slide.kind === 'class' || slide.kind === 'award' ? slide.entries.length : 0;
    return Array.from({ length: count + 1 }, (_, revealed) => ({ slide: index, revealed }));
  });
}

/** /admin/siegerehrung: the ceremony for the projector (admins only). */
export function CeremonyPage() {
  return (
    <AdminOnly>
      <CeremonyScreen />
    </AdminOnly>
  );
}

function CeremonyScreen() {
  const editions = useQuery(editionsQueryOptions);
  const chosen = useChosenEdition();
  const year = chosen ?? editions.data?.editions.find((edition) => edition.current)?.year;
  const ceremony = useQuery({ ...ceremonyQueryOptions(year ?? 0), enabled: Boolean(year) });
  if (ceremony.data) return <Presentation ceremony={ceremony.data} />;
  return (
    <section className="flex-1">
      <h1 className="font-display text-4xl text-parchment">Siegerehrung</h1>
      <div className="mt-8">
        {ceremony.isError || editions.isError ? (
          <LoadError
            title="Siegerehrung konnte nicht geladen werden"
            query={ceremony.isError ? ceremony : editions}
            headingLevel="h2"
            compact
          />
        ) : (
          <LoadingBlock label="Siegerehrung wird geladen..." className="h-64 rounded-2xl" />
        )}
      </div>
    </section>
  );
}

/** Whether the key press belongs to a control with focus (a button's Enter or Space). */
const pressesControl = (event: KeyboardEvent) =>
  (event.key === 'Enter' || event.key === ' ') &&
  event.target instanceof HTMLElement &&
  Boolean(event.target.closest('button, a, input, textarea, select'));

function Presentation({ ceremony }: { ceremony: JuryCeremony }) {
  const slides = useMemo(() => ceremonySlides(ceremony), [ceremony]);
  const steps = useMemo(() => ceremonySteps(slides), [slides]);
  const [index, setIndex] = useState(0);
  const [fullscreen, setFullscreen] = useState(false);
  const stage = useRef<HTMLDivElement>(null);
  const step = steps[Math.min(index, steps.length - 1)]!;
  const forward = useCallback(() => setIndex((at) => Math.min(at + 1, steps.length - 1)), [steps.length]);
  const back = useCallback(() => setIndex((at) => Math.max(at - 1, 0)), []);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || pressesControl(event)) return;
      if (FORWARD.has(event.key)) {
        event.preventDefault();
        forward();
      } else if (BACK.has(event.key)) {
        event.preventDefault();
        back();
      } else if (event.key === 'Home') {
        setIndex(0);
      } else if (event.key === 'End') {
        setIndex(steps.length - 1);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [forward, back, steps.length]);

  useEffect(() => {
    const onChange = () =>
      setFullscreen(document.fullscreenElement === stage.current && stage.current !== null);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen?.();
    else void stage.current?.requestFullscreen?.().catch(() => undefined);
  };

  const slide = slides[step.slide]!;
  return (
    <div
      ref={stage}
      role="region"
      aria-label="Siegerehrung"
      className="fixed inset-0 z-[45] flex flex-col overflow-hidden bg-night-950 text-parchment"
    >
      <div className="flex flex-wrap items-center justify-between gap-3 px-6 py-3 text-sm text-ash-400">
        <span>
          {ceremony.editionName} · Schritt {index + 1} von {steps.length}
        </span>
        <div className="flex flex-wrap gap-2">
          <Button variant="ghost" onClick={back} disabled={index === 0}>
            Zurück
          </Button>
          <Button variant="ghost" onClick={forward} disabled={index === steps.length - 1}>
            Weiter
          </Button>
          <Button variant="secondary" onClick={toggleFullscreen}>
            {fullscreen ? 'Vollbild beenden' : 'Vollbild'}
          </Button>
          {fullscreen ? null : (
            <Link to="/admin/jury" className={buttonClass('ghost')}>
              Zur Jury
            </Link>
          )}
        </div>
      </div>
      <div
        aria-live="polite"
        className="flex min-h-0 flex-1 flex-col items-center justify-center gap-8 overflow-y-auto px-6 pb-10 text-center"
      >
        <SlideView slide={slide} revealed={step.revealed} ceremony={ceremony} />
      </div>
      <p className="px-6 pb-3 text-center text-xs text-ash-400">
        Weiter: Pfeil rechts, Leertaste, Bild ab oder Eingabe · Zurück: Pfeil links oder Bild auf
      </p>
    </div>
  );
}

function SlideView({
  slide,
  revealed,
  ceremony,
}: {
  slide: Slide;
  revealed: number;
  ceremony: JuryCeremony;
}) {
  switch (slide.kind) {
    case 'title':
      return (
        <Headline kicker={ceremony.editionName} title="Siegerehrung">
          <p className="text-2xl text-ash-300 sm:text-3xl">Die Jury hat entschieden.</p>
        </Headline>
      );
    case 'open':
      return (
        <Headline kicker="Jury" title="Noch nicht abgeschlossen">
          <p className="text-2xl text-ash-300 sm:text-3xl">{slide.names.join(', ')}</p>
        </Headline>
      );
    case 'end':
      return (
        <Headline kicker={ceremony.editionName} title="Herzlichen Glückwunsch!">
          <p className="text-2xl text-ash-300 sm:text-3xl">Danke an alle, die dabei waren.</p>
        </Headline>
      );
    default:
      return (
        <PlacesSlide
          title={slide.title}
          kicker={slide.kind === 'award' ? 'Publikumspreis' : 'Jury'}
          entries={slide.entries}
          revealed={revealed}
        />
      );
  }
}

function Headline({ kicker, title, children }: { kicker: string; title: string; children?: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-6">
      <p className="text-lg tracking-[0.4em] text-gold-400 uppercase sm:text-2xl">{kicker}</p>
      <h1 className="font-display text-6xl text-parchment sm:text-8xl">{title}</h1>
      {children}
    </div>
  );
}

/**
 * A class (or the award) with its places, the first place on top: the `revealed` last ones are
 * shown, the others wait as '?'.
 */
function PlacesSlide({
  title,
  kicker,
  entries,
  revealed,
}: {
  title: string;
  kicker: string;
  entries: Reveal[];
  revealed: number;
}) {
  // Shown from the end of the list: the last place first.
  const shownFrom = entries.length - revealed;
  return (
    <>
      <div className="flex flex-col items-center gap-3">
        <p className="text-lg tracking-[0.4em] text-gold-400 uppercase sm:text-2xl">{kicker}</p>
        <h1 className="font-display text-5xl text-parchment sm:text-7xl">{title}</h1>
      </div>
      {entries.length === 0 ? (
        <p className="text-2xl text-ash-300">In dieser Klasse wurde kein Platz vergeben.</p>
      ) : (
        <ol className="flex w-full max-w-5xl flex-col gap-4">
          {entries.map((entry, position) => {
            const shown = position >= shownFrom;
            const newest = position === shownFrom;
            return (
              <li
                key={`${entry.place}-${entry.startNumber}`}
                className={`flex items-center gap-6 rounded-3xl border px-6 py-4 text-left transition-colors ${
                  shown
                    ? newest
                      ? 'border-gold-400/80 bg-gold-500/15'
                      : 'border-gold-500/30 bg-night-900'
                    : 'border-white/10 bg-night-900/40'
                }`}
              >
                <span
                  className={`w-36 shrink-0 font-display text-3xl sm:text-5xl ${
                    entry.place === 1 ? 'text-gold-300' : 'text-gold-200'
                  }`}
                >
                  {entry.place}. Platz
                </span>
                {shown ? (
                  <>
                    <div className="relative hidden aspect-[16/10] w-40 shrink-0 overflow-hidden rounded-xl bg-night-950 sm:block">
                      {entry.imageUrl ? (
                        <img
                          src={entry.imageUrl}
                          alt=""
                          className="absolute inset-0 size-full object-cover"
                        />
                      ) : (
                        <div className="absolute inset-0 flex items-center justify-center text-gold-500/40">
                          <CarPlaceholderIcon className="size-12" />
                        </div>
                      )}
                    </div>
                    <div className="min-w-0 flex-1">
                      <p
                        className={`font-display text-parchment ${newest ? 'text-4xl sm:text-6xl' : 'text-3xl sm:text-4xl'}`}
                      >
                        {entry.name}
                      </p>
                      <p className="mt-1 text-xl text-ash-300 sm:text-2xl">
                        Startnummer {entry.startNumber}
                        {entry.detail ? ` · ${entry.detail}` : ''}
                      </p>
                    </div>
                  </>
                ) : (
                  <p className="font-display text-4xl text-ash-400 sm:text-6xl">
                    <span aria-hidden="true">?</span>
                    <span className="sr-only">Noch verdeckt</span>
                  </p>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </>
  );
}
