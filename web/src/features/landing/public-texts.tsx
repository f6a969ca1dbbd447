import type { EditionPhase } from '@schlosstreffen/shared';
import { SectionHeading } from './section-heading';

/**
 * The landing page's public texts ('Texte'): the introduction, the event details text and the FAQ,
 * each an admin's text of the edition or else the default one below. An admin's text arrives as the
 * HTML the server formatted (shared's `formatText`: everything of the text escaped, only p, br, ul,
 * li, strong and a with a checked href written) and is injected as it is. The admin's preview renders
 * with these components. Kept apart from the icons and the accordion (faq-section.tsx), which
 * the admin's chunk must not import statically: the build would split them off the app's chunk.
 */

/** An admin's text as HTML of shared's `formatText`. */
export function FormattedText({ html, className = '' }: { html: string; className?: string }) {
  return (
    <div
      className={`flex flex-col gap-3 [&_a]:font-semibold [&_a]:text-gold-200 [&_a]:underline [&_a]:underline-offset-4 [&_strong]:font-semibold [&_strong]:text-parchment [&_ul]:list-disc [&_ul]:pl-5 ${className}`}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

export const DEFAULT_INTRODUCTION =
  'Individuell getunte Fahrzeuge vor der Kulisse eines historischen Schlosses in Sachsen – ein Tag für Schrauber, Fans und alle, die besondere Autos lieben.';

const introClass = 'max-w-2xl text-lg leading-relaxed text-ash-300 sm:text-xl';

/** The introduction under the name: an admin's text ('Texte', as HTML of shared's formatText), else the default. */
export function HeroIntroduction({ html }: { html?: string | null }) {
  return html ? (
    <FormattedText html={html} className={introClass} />
  ) : (
    <p className={introClass}>{DEFAULT_INTRODUCTION}</p>
  );
}

export const DEFAULT_EVENT_DETAILS =
  'Ein historisches Schloss, ein weitläufiger Park und die schönsten individuell aufgebauten Fahrzeuge: Merk dir den Termin vor und sei dabei.';

/** The heading and the event details text: an admin's text ('Texte', as HTML), else the default. */
export function EventDetails({ html }: { html?: string | null }) {
  return (
    <SectionHeading id="event-title" eyebrow="Event-Infos" title="Ein Tag voller PS am Schloss">
      {html ? <FormattedText html={html} /> : <p>{DEFAULT_EVENT_DETAILS}</p>}
    </SectionHeading>
  );
}

interface FaqItem {
  value: string;
  question: string;
  answer: string;
  /** An admin's answer, as HTML of shared's formatText; the default ones are plain text. */
  formatted?: boolean;
}

/** What the default answer about the deadline says in each phase of the current edition. */
export interface DeadlineFacts {
  phase: EditionPhase;
  /** 'Schlosstreffen 2027'. */
  editionName: string;
  /** 'März 2027'. */
  deadlineMonth: string;
  /** '31. März 2027'. */
  deadlineDate: string;
  /** '15. Januar 2027' when the opening is set. */
  opensOn: string | null;
}

/** The default answer to 'Bis wann kann ich mich bewerben?' in the current edition's phase. */
export function deadlineAnswer({
  phase,
  editionName,
  deadlineMonth,
  deadlineDate,
  opensOn,
}: DeadlineFacts): string {
  switch (phase) {
    case 'open':
      return `Bewirb dich spätestens bis ${deadlineMonth}. Die Plätze sind begrenzt, deshalb lohnt sich eine frühe Bewerbung.`;
    case 'scheduled':
    case 'preparation':
      return (
        (opensOn
          ? `Die Bewerbung für ${editionName} öffnet am ${opensOn}.`
          : `Die Bewerbung für ${editionName} öffnet bald; den Termin geben wir hier bekannt.`) +
        ` Bewerbungsschluss ist im ${deadlineMonth}. Die Plätze sind begrenzt, deshalb lohnt sich eine frühe Bewerbung.`
      );
    case 'closed':
    case 'meetingDay':
      return `Der Bewerbungsschluss für ${editionName} war am ${deadlineDate}; neue Bewerbungen sind nicht mehr möglich. Als Besucher bist du herzlich willkommen: Merk dich vor, dann halten wir dich auf dem Laufenden.`;
    case 'over':
    case 'archived':
      return `Das ${editionName} ist vorbei. Die Bewerbung für das nächste Treffen öffnet rechtzeitig vorher; merk dich als Besucher vor, dann sagen wir dir Bescheid.`;
  }
}

/**
 * The default FAQ questions and answers; the deadline month comes from the site config, the answer
 * about the deadline follows the edition's phase when given.
 */
export function faqItems(deadlineMonth: string, deadline?: string): FaqItem[] {
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
      answer:
        deadline ??
        `Bewirb dich spätestens bis ${deadlineMonth}. Die Plätze sind begrenzt, deshalb lohnt sich eine frühe Bewerbung.`,
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
