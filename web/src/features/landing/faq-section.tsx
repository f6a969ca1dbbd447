import { Accordion } from '@ark-ui/react/accordion';
import { ChevronDownIcon } from '../../components/icons';
import { faqItems, FormattedText } from './public-texts';
import { SectionHeading } from './section-heading';
import { SocialLinks } from '../../components/social-links';

/**
 * FAQ (anchor id faq): an accordion with one item open at a time, collapsible. The edition's
 * questions and answers as an admin edited them ('Texte'; the answers as HTML), else the default ones
 * (the one about the deadline in the edition's phase).
 */
export function FaqSection({
  deadlineMonth,
  deadlineAnswer,
  faq,
}: {
  deadlineMonth: string;
  /** The default answer about the deadline in the edition's phase. */
  deadlineAnswer?: string;
  faq?: Array<{ question: string; answer: string }> | null;
}) {
  const items = faq
    ? faq.map((entry, index) => ({ ...entry, value: `q${index}`, formatted: true }))
    : faqItems(deadlineMonth, deadlineAnswer);

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
                {item.formatted ? <FormattedText html={item.answer} /> : item.answer}
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
