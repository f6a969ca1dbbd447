import { ArrowRightIcon } from '../../components/icons';
import { SectionHeading } from './section-heading';
import { SocialLinks } from '../../components/social-links';

/** The organizer and links to its two social profiles. */
export function OrganizerSection({ eventName }: { eventName: string }) {
  return (
    <section aria-labelledby="organizer-title" className="py-20 sm:py-28">
      <div className="mx-auto grid max-w-6xl items-center gap-12 px-5 sm:px-6 lg:grid-cols-2">
        <SectionHeading id="organizer-title" eyebrow="Der Veranstalter" title="Von Szene-Fans für die Szene">
          <p>
            Hinter dem {eventName} steht ein Team, das selbst schraubt, tunt und Treffen besucht. Unser Ziel:
            ein Tag, an dem besondere Fahrzeuge den Rahmen bekommen, den sie verdienen.
          </p>
          <p className="mt-4">
            Folge uns für Neuigkeiten, Fahrzeugvorstellungen und Eindrücke rund um das Treffen.
          </p>
        </SectionHeading>

        <SocialLinks
          className="grid gap-4 sm:grid-cols-2"
          linkClassName="group flex h-full flex-col gap-6 rounded-2xl border border-gold-500/20 bg-linear-to-br from-night-800 to-night-900 p-6 transition-colors hover:border-gold-400/60"
        >
          {(link, SocialIcon) => (
            <>
              <span className="flex size-12 items-center justify-center rounded-full bg-gold-500/10 text-gold-300 ring-1 ring-gold-500/35">
                <SocialIcon className="size-6" />
              </span>
              <span className="flex flex-col gap-1">
                <span className="font-display text-2xl text-parchment">{link.label}</span>
                <span className="text-sm text-ash-400">{link.handle}</span>
              </span>
              <span className="mt-auto flex items-center gap-2 text-sm font-semibold text-gold-300">
                Folgen
                <ArrowRightIcon className="size-4 transition-transform group-hover:translate-x-1" />
                <span className="sr-only">(öffnet in neuem Tab)</span>
              </span>
            </>
          )}
        </SocialLinks>
      </div>
    </section>
  );
}
