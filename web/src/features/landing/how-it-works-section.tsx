import { Link } from '@tanstack/react-router';
import { ArrowRightIcon, CameraIcon, MailCheckIcon, TicketIcon, UserPlusIcon } from '../../components/icons';
import { SectionHeading } from './section-heading';

const STEPS = [
  {
    title: 'Registrieren',
    text: 'Leg dein kostenloses Konto an – Name, E-Mail und Passwort genügen.',
    Icon: UserPlusIcon,
  },
  {
    title: 'Fahrzeug hochladen',
    text: 'Trag die technischen Daten ein und lade mindestens drei aussagekräftige Fotos hoch.',
    Icon: CameraIcon,
  },
  {
    title: 'Prüfung & Einladung',
    text: 'Unser Team prüft deine Bewerbung. Bei einer Zusage bekommst du eine Einladung.',
    Icon: MailCheckIcon,
  },
  {
    title: 'Ticket erhalten',
    text: 'Nach deiner Bestätigung erhältst du dein Ticket mit QR-Code, Startnummer und Parkzone.',
    Icon: TicketIcon,
  },
];

/** Four steps from account to ticket; each card links to /register. */
export function HowItWorksSection() {
  return (
    <section aria-labelledby="steps-title" className="py-20 sm:py-28">
      <div className="mx-auto flex max-w-6xl flex-col gap-12 px-5 sm:px-6">
        <SectionHeading
          id="steps-title"
          eyebrow="So funktioniert's"
          title="In vier Schritten zum Schloss"
          align="center"
        >
          <p>Von der Anmeldung bis zum Ticket – so kommt dein Fahrzeug zum Treffen.</p>
        </SectionHeading>

        <ol className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {STEPS.map(({ title, text, Icon }, index) => (
            <li key={title}>
              <Link
                to="/register"
                className="group relative flex h-full flex-col gap-5 overflow-hidden rounded-2xl border border-gold-500/20 bg-night-900/80 p-6 transition-colors hover:border-gold-400/60 hover:bg-night-800/80"
              >
                <span
                  aria-hidden="true"
                  className="absolute -top-4 right-3 font-display text-8xl text-gold-500/10 transition-colors group-hover:text-gold-500/20"
                >
                  {index + 1}
                </span>
                <span className="flex size-12 items-center justify-center rounded-full border border-gold-500/35 bg-gold-500/10 text-gold-300">
                  <Icon className="size-6" />
                </span>
                <span className="flex flex-col gap-2">
                  <span className="text-xs font-semibold tracking-[0.25em] text-gold-400 uppercase">
                    Schritt {index + 1}
                  </span>
                  <span className="font-display text-2xl text-parchment">{title}</span>
                  <span className="text-sm leading-relaxed text-ash-300">{text}</span>
                </span>
                <span className="mt-auto flex items-center gap-2 text-sm font-semibold text-gold-300">
                  Jetzt registrieren
                  <ArrowRightIcon className="size-4 transition-transform group-hover:translate-x-1" />
                </span>
              </Link>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
