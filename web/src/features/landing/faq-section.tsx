import { Accordion } from '@ark-ui/react/accordion';
import { ChevronDownIcon } from '../../components/icons';
import { SectionHeading } from './section-heading';
import { SocialLinks } from '../../components/social-links';

interface FaqItem {
  value: string;
  question: string;
  answer: string;
}

/** The FAQ questions and answers; the deadline month comes from the site config. */
function faqItems(deadlineMonth: string): FaqItem[] {
  return [
    {
      value: 'status',
      question: 'Welchen Status kann meine Bewerbung haben?',
      answer:
        'Nach dem Einreichen ist deine Bewerbung zunächst in Prüfung. Danach erhältst du entweder eine Einladung, landest auf der Warteliste oder bekommst eine Absage. Den aktuellen Stand siehst du jederzeit in deinem Dashboard.',
    },
    {
      value: 'invitation',
      question: 'Was passiert, wenn mein Fahrzeug angenommen wird?',
      answer:
        'Du bekommst eine Einladung per E-Mail. Bitte bestätige sie, denn erst mit deiner Bestätigung ist dein Platz verbindlich reserviert.',
    },
    {
      value: 'requirements',
      question: 'Welche Fotos und Daten brauche ich für die Bewerbung?',
      answer:
        'Du brauchst mindestens drei hochwertige Fotos deines Fahrzeugs und seine technischen Daten – vor allem die Leistung in PS, die Beschleunigung von 0 auf 100 km/h und die Höchstgeschwindigkeit.',
    },
    {
      value: 'consents',
      question: 'Welche Einwilligungen muss ich geben?',
      answer:
        'Wir benötigen deine Einwilligung, die Bilder deines Fahrzeugs auf unserer Website, in den sozialen Medien und für das Auto-Quartett zu verwenden.',
    },
    {
      value: 'vehicles',
      question: 'Welche Fahrzeuge können teilnehmen?',
      answer:
        'Dein Fahrzeug sollte individuell modifiziert sein – ob Motor, Fahrwerk, Optik oder Innenraum. Außerdem muss es die gesetzlichen Anforderungen erfüllen.',
    },
    {
      value: 'deadline',
      question: 'Bis wann kann ich mich bewerben?',
      answer: `Bewirb dich spätestens bis ${deadlineMonth}. Die Plätze sind begrenzt, deshalb lohnt sich eine frühe Bewerbung.`,
    },
    {
      value: 'costs',
      question: 'Kostet die Bewerbung etwas?',
      answer:
        'Nein, die Bewerbung ist kostenlos. Für die Teilnahme können später Gebühren anfallen – darüber informieren wir dich rechtzeitig.',
    },
    {
      value: 'changes',
      question: 'Kann ich meine Fahrzeugdaten nachträglich ändern?',
      answer:
        'Ja. Bis zur finalen Freigabe für das Auto-Quartett kannst du deine Daten jederzeit in deinem Dashboard anpassen. Danach werden sie für den Druck festgeschrieben.',
    },
  ];
}

/** FAQ (anchor id faq): an accordion with one item open at a time, collapsible. */
export function FaqSection({ deadlineMonth }: { deadlineMonth: string }) {
  const items = faqItems(deadlineMonth);

  return (
    <section id="faq" aria-labelledby="faq-title" className="scroll-mt-20 py-20 sm:py-28 md:scroll-mt-24">
      <div className="mx-auto grid max-w-6xl gap-10 px-5 sm:px-6 lg:grid-cols-[1fr_1.5fr] lg:grid-rows-[auto_1fr] lg:gap-x-12">
        <div className="lg:col-start-1 lg:row-start-1">
          <SectionHeading id="faq-title" eyebrow="FAQ" title="Häufige Fragen">
            <p>Alles Wichtige zur Bewerbung mit deinem Fahrzeug auf einen Blick.</p>
          </SectionHeading>
        </div>
        <Accordion.Root
          collapsible
          multiple={false}
          className="flex flex-col gap-3 lg:col-start-2 lg:row-span-2 lg:row-start-1"
        >
          {items.map((item) => (
            <Accordion.Item
              key={item.value}
              value={item.value}
              className="rounded-2xl border border-gold-500/15 bg-night-900/70 transition-colors data-[state=open]:border-gold-500/40 data-[state=open]:bg-night-900"
            >
              <h3>
                <Accordion.ItemTrigger className="group flex w-full items-center justify-between gap-4 rounded-2xl px-5 py-4 text-left font-display text-lg text-parchment transition-colors hover:text-gold-200 sm:px-6 sm:py-5 sm:text-xl">
                  {item.question}
                  <Accordion.ItemIndicator className="flex size-8 shrink-0 items-center justify-center rounded-full border border-gold-500/30 text-gold-300 transition-transform duration-200 data-[state=open]:rotate-180">
                    <ChevronDownIcon className="size-4" />
                  </Accordion.ItemIndicator>
                </Accordion.ItemTrigger>
              </h3>
              <Accordion.ItemContent className="px-5 pb-5 leading-relaxed text-ash-300 sm:px-6 sm:pb-6">
                {item.answer}
              </Accordion.ItemContent>
            </Accordion.Item>
          ))}
        </Accordion.Root>
        <div className="flex flex-col gap-3 self-start rounded-2xl border border-white/5 bg-night-900/60 p-6 lg:col-start-1 lg:row-start-2">
          <p className="text-sm text-ash-300">Deine Frage ist nicht dabei? Schreib uns:</p>
          <SocialLinks
            className="flex flex-wrap gap-3"
            linkClassName="flex items-center gap-2 rounded-full border border-gold-500/30 px-4 py-2 text-sm text-gold-200 transition-colors hover:border-gold-400 hover:bg-gold-500/10"
            iconClassName="size-4"
          />
        </div>
      </div>
    </section>
  );
}
