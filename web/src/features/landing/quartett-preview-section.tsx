import { STATUS_BADGE_CLASSES, STATUS_LABELS } from '@schlosstreffen/shared';
import { QuartettCard } from '../vehicles/quartett-card';
import { SectionHeading } from './section-heading';

/** Placeholder values of the sample card: what a finished card could show. */
const SAMPLE = {
  title: 'Dein Fahrzeug',
  subline: 'Modell · Baujahr · Farbe',
  values: { ps: 420, torqueNm: 550, zeroToHundredS: 4.2, topSpeedKmh: 290, cylinders: 6, weightKg: 1480 },
} as const;

const FIELDS = [
  'Name deines Fahrzeugs',
  'Modell, Baujahr und Farbe',
  'Leistung in PS und Drehmoment in Nm',
  'Beschleunigung 0-100 km/h und V-Max',
  'Zylinder und Gewicht',
];

/** The quartett card preview with placeholder values and the sample badge 'Eingeladen'. */
export function QuartettPreviewSection() {
  return (
    <section
      aria-labelledby="quartett-title"
      className="border-y border-gold-500/10 bg-night-900/50 py-20 sm:py-28"
    >
      <div className="mx-auto grid max-w-6xl items-center gap-14 px-5 sm:px-6 lg:grid-cols-[1.1fr_1fr]">
        <div className="flex flex-col gap-8">
          <SectionHeading id="quartett-title" eyebrow="Auto-Quartett" title="Dein Auto als Quartett-Karte">
            <p>
              Jedes bestätigte Fahrzeug wird zu einer Karte im gedruckten Schlosstreffen-Quartett – mit deinen
              technischen Daten und deinem Namen. So nimmst du dein Auto mit nach Hause.
            </p>
          </SectionHeading>
          <ul className="grid gap-3 sm:grid-cols-2">
            {FIELDS.map((field) => (
              <li key={field} className="flex items-start gap-3 text-ash-300">
                <span aria-hidden="true" className="mt-2 size-1.5 shrink-0 rotate-45 bg-gold-400" />
                {field}
              </li>
            ))}
          </ul>
        </div>

        <div className="relative flex justify-center py-6">
          <div
            aria-hidden="true"
            className="absolute top-1/2 left-1/2 h-[24rem] w-[16rem] -translate-x-[40%] sm:h-[27rem] sm:w-[19rem] sm:-translate-x-[38%] -translate-y-1/2 rotate-[9deg] rounded-2xl border border-gold-500/40 bg-night-800 bg-[repeating-linear-gradient(45deg,rgba(212,168,72,0.14)_0_8px,transparent_8px_18px)] shadow-2xl shadow-black/60"
          />
          <div
            aria-hidden="true"
            className="absolute inset-0 m-auto size-72 rounded-full bg-gold-500/15 blur-3xl"
          />
          <QuartettCard
            title={SAMPLE.title}
            subline={SAMPLE.subline}
            badge={{ label: STATUS_LABELS.invited, className: STATUS_BADGE_CLASSES.invited }}
            values={SAMPLE.values}
            code="A1"
            className="relative -rotate-2"
          />
        </div>
      </div>
    </section>
  );
}
