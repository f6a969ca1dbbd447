import {
  DEADLINE_PLACEHOLDER,
  deadlineMonthOf,
  formatText,
  PUBLIC_TEXT_LIMITS,
  PublicTextsSchema,
  withDeadline,
  type FaqEntry,
  type PublicTexts,
} from '@schlosstreffen/shared';
import type { PublicTextsView } from '@schlosstreffen/shared/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState, type ReactNode } from 'react';
import * as v from 'valibot';
import { Button } from '../../../components/ui/button';
import { inputClass } from '../../../components/ui/form-field';
import { LoadError, LoadingBlock } from '../../../components/ui/query-states';
import { Spinner } from '../../../components/ui/spinner';
import { notify } from '../../../components/ui/toaster';
import { api } from '../../../lib/api';
import { formatDateTime } from '../../../lib/date-format';
import { useUnsavedChanges } from '../../../lib/unsaved-changes';
import {
  DEFAULT_EVENT_DETAILS,
  DEFAULT_INTRODUCTION,
  EventDetails,
  faqItems,
  FormattedText,
  HeroIntroduction,
} from '../../landing/public-texts';
import { AdminOnly } from '../admin-layout';
import { publicTextsQueryOptions, textsKey } from './texts-queries';

type Part = keyof PublicTexts;

interface Entry extends FaqEntry {
  /** Keeps an entry's fields with it when it moves. */
  key: number;
}

interface Draft {
  introduction: string;
  eventDetails: string;
  faq: Entry[];
}

const PART_NAMES: Record<Part, string> = {
  introduction: 'Einführung',
  eventDetails: 'Veranstaltungsdetails',
  faq: 'FAQ',
};

let keys = 0;
const entriesOf = (faq: FaqEntry[]): Entry[] =>
  faq.map(({ question, answer }) => ({ key: keys++, question, answer }));

/** What the editor starts from: the edition's texts, the default ones where it has none. */
function draftOf(view: PublicTextsView): Draft {
  return {
    introduction: view.texts.introduction ?? DEFAULT_INTRODUCTION,
    eventDetails: view.texts.eventDetails ?? DEFAULT_EVENT_DETAILS,
    // The default FAQ with the placeholder: saved, it names the deadline of every later edition too.
    faq: entriesOf(view.texts.faq ?? faqItems(DEADLINE_PLACEHOLDER)),
  };
}

/** A part of the draft as the API takes it. */
const valueOf = (draft: Draft, part: Part) =>
  part === 'faq' ? draft.faq.map(({ question, answer }) => ({ question, answer })) : draft[part];

const sameValue = (a: Draft, b: Draft, part: Part) =>
  JSON.stringify(valueOf(a, part)) === JSON.stringify(valueOf(b, part));

const PARTS: Part[] = ['introduction', 'eventDetails', 'faq'];

/** A text as the landing page gets it from the server (empty: the default). */
const htmlOf = (text: string, deadlineMonth: string) =>
  text.trim() ? formatText(withDeadline(text, deadlineMonth)) : null;

function useSaveTexts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (texts: Partial<PublicTexts>) => api.put<PublicTextsView>('/api/admin/texts', texts),
    onSuccess: (view) => queryClient.setQueryData(textsKey, view),
  });
}

/**
 * The FAQ as the landing page shows it: its questions and its answers in the landing page's text
 * component, each opened and closed like the accordion (the accordion itself stays in the landing
 * page's chunk: imported here, the build would move parts of it into the landing page's first load).
 */
function FaqPreview({ entries }: { entries: FaqEntry[] }) {
  if (!entries.length) return <p className="text-sm text-ash-400">Noch keine vollständige Frage.</p>;
  return (
    <div className="flex flex-col gap-3">
      {entries.map((entry, index) => (
        <details
          key={index}
          name="faq-vorschau"
          className="group rounded-2xl border border-gold-500/15 bg-night-900/70 open:border-gold-500/40 open:bg-night-900"
        >
          <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded-2xl px-5 py-4 font-display text-lg text-parchment hover:text-gold-200 sm:px-6 sm:py-5 sm:text-xl [&::-webkit-details-marker]:hidden">
            <h3>{entry.question}</h3>
            <span
              aria-hidden="true"
              className="flex size-8 shrink-0 items-center justify-center rounded-full border border-gold-500/30 text-gold-300 transition-transform duration-200 group-open:rotate-180"
            >
              ▾
            </span>
          </summary>
          <div className="px-5 pb-5 leading-relaxed text-ash-300 sm:px-6 sm:pb-6">
            <FormattedText html={entry.answer} />
          </div>
        </details>
      ))}
    </div>
  );
}

function Counter({ value, max }: { value: string; max: number }) {
  return (
    <span className={`text-xs ${value.length > max ? 'text-red-300' : 'text-ash-400'}`}>
      {value.length}/{max} Zeichen
    </span>
  );
}

/** One part: its editor, its state (default or edited), 'Standard wiederherstellen' and the preview. */
function PartSection({
  part,
  view,
  resetting,
  onReset,
  preview,
  children,
}: {
  part: Part;
  view: PublicTextsView;
  resetting: boolean;
  onReset: () => void;
  preview: ReactNode;
  children: ReactNode;
}) {
  const isDefault = view.texts[part] === null;
  const id = `texte-${part}`;
  return (
    <section
      aria-labelledby={id}
      className="flex flex-col gap-4 rounded-2xl border border-white/10 bg-night-900/60 p-5"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-3">
          <h2 id={id} className="font-display text-2xl text-parchment">
            {PART_NAMES[part]}
          </h2>
          <span
            className={`rounded-full border px-2.5 py-0.5 text-xs ${isDefault ? 'border-white/15 text-ash-300' : 'border-gold-500/40 text-gold-200'}`}
          >
            {isDefault ? 'Standardtext' : 'Angepasst'}
          </span>
        </div>
        <Button
          variant="ghost"
          className="px-3 py-1.5"
          aria-label={`Standard wiederherstellen: ${PART_NAMES[part]}`}
          disabled={isDefault || resetting}
          onClick={onReset}
        >
          Standard wiederherstellen
        </Button>
      </div>
      <div className="grid gap-5 xl:grid-cols-2 xl:items-start">
        <div className="flex flex-col gap-3">{children}</div>
        <div role="region" aria-label={`Vorschau: ${PART_NAMES[part]}`} className="flex flex-col gap-2">
          <p className="text-xs font-semibold tracking-[0.2em] text-ash-400 uppercase">Vorschau</p>
          <div className="overflow-hidden rounded-2xl border border-gold-500/20 bg-night-950 p-5">
            {preview}
          </div>
        </div>
      </div>
    </section>
  );
}

function TextArea({
  id,
  label,
  value,
  max,
  rows = 4,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  max: number;
  rows?: number;
  onChange: (value: string) => void;
}) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-ash-300">
        {label}
      </label>
      <textarea
        id={id}
        rows={rows}
        className={`${inputClass} min-h-24 resize-y leading-relaxed`}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
      <Counter value={value} max={max} />
    </div>
  );
}

function TextsEditor({ view }: { view: PublicTextsView }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(view));
  const [error, setError] = useState<string | null>(null);
  const saved = useMemo(() => draftOf(view), [view]);
  const save = useSaveTexts();
  const reset = useSaveTexts();
  const changed = PARTS.filter((part) => !sameValue(draft, saved, part));
  const dirty = changed.length > 0;

  // Leaving the page (reload, closing the tab) or switching the edition with unsaved changes asks first.
  useUnsavedChanges(dirty);

  const setEntry = (index: number, change: Partial<FaqEntry>) =>
    setDraft((d) => ({ ...d, faq: d.faq.map((e, i) => (i === index ? { ...e, ...change } : e)) }));
  const move = (index: number, by: -1 | 1) =>
    setDraft((d) => {
      const faq = [...d.faq];
      [faq[index], faq[index + by]] = [faq[index + by]!, faq[index]!];
      return { ...d, faq };
    });

  const submit = async () => {
    const parsed = v.safeParse(
      PublicTextsSchema,
      Object.fromEntries(changed.map((part) => [part, valueOf(draft, part)])),
    );
    if (!parsed.success) {
      setError(parsed.issues[0].message);
      return;
    }
    setError(null);
    try {
      const next = await save.mutateAsync(parsed.output as Partial<PublicTexts>);
      setDraft(draftOf(next));
      notify.success('Gespeichert', 'Die Texte der Startseite wurden gespeichert.');
    } catch (failure) {
      notify.error('Fehler', failure, 'Die Texte konnten nicht gespeichert werden.');
    }
  };

  const restore = async (part: Part) => {
    try {
      const next = await reset.mutateAsync({ [part]: null });
      // Only this part goes back to the default; unsaved changes of the others stay.
      setDraft((d) => ({ ...d, [part]: draftOf(next)[part] }));
      notify.success('Standard wiederhergestellt', `${PART_NAMES[part]}: Es gilt wieder der Standardtext.`);
    } catch (failure) {
      notify.error('Fehler', failure, 'Der Standardtext konnte nicht wiederhergestellt werden.');
    }
  };

  const month = deadlineMonthOf(view.edition.applicationDeadline);
  const html = (text: string) => htmlOf(text, month);
  const previewFaq = draft.faq
    .filter((e) => e.question.trim() && e.answer.trim())
    .map(({ question, answer }) => ({ question: withDeadline(question, month), answer: html(answer)! }));

  return (
    <form
      aria-label="Texte der Startseite"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      className="flex flex-col gap-6"
    >
      <PartSection
        part="introduction"
        view={view}
        resetting={reset.isPending}
        onReset={() => void restore('introduction')}
        preview={
          <div className="flex flex-col items-center text-center">
            <HeroIntroduction html={html(draft.introduction)} />
          </div>
        }
      >
        <TextArea
          id="texte-einfuehrung"
          label="Einführung unter dem Namen des Treffens"
          value={draft.introduction}
          max={PUBLIC_TEXT_LIMITS.introduction}
          onChange={(introduction) => setDraft((d) => ({ ...d, introduction }))}
        />
      </PartSection>

      <PartSection
        part="eventDetails"
        view={view}
        resetting={reset.isPending}
        onReset={() => void restore('eventDetails')}
        preview={<EventDetails html={html(draft.eventDetails)} />}
      >
        <TextArea
          id="texte-details"
          label="Text unter „Ein Tag voller PS am Schloss“"
          value={draft.eventDetails}
          max={PUBLIC_TEXT_LIMITS.eventDetails}
          rows={6}
          onChange={(eventDetails) => setDraft((d) => ({ ...d, eventDetails }))}
        />
      </PartSection>

      <PartSection
        part="faq"
        view={view}
        resetting={reset.isPending}
        onReset={() => void restore('faq')}
        preview={<FaqPreview entries={previewFaq} />}
      >
        <p className="text-sm text-ash-300">
          {draft.faq.length} von {PUBLIC_TEXT_LIMITS.faqItems} Fragen, in der Reihenfolge der Startseite.
        </p>
        <ol className="flex flex-col gap-4">
          {draft.faq.map((entry, index) => (
            <li key={entry.key}>
              <fieldset className="flex flex-col gap-3 rounded-xl border border-white/10 p-4">
                <legend className="px-1 text-sm font-medium text-ash-300">Frage {index + 1}</legend>
                <div className="flex flex-col gap-1.5">
                  <label htmlFor={`faq-frage-${entry.key}`} className="text-xs text-ash-400">
                    Frage
                  </label>
                  <input
                    id={`faq-frage-${entry.key}`}
                    className={inputClass}
                    value={entry.question}
                    onChange={(event) => setEntry(index, { question: event.target.value })}
                  />
                  <Counter value={entry.question} max={PUBLIC_TEXT_LIMITS.question} />
                </div>
                <TextArea
                  id={`faq-antwort-${entry.key}`}
                  label="Antwort"
                  value={entry.answer}
                  max={PUBLIC_TEXT_LIMITS.answer}
                  onChange={(answer) => setEntry(index, { answer })}
                />
                <div className="flex flex-wrap gap-2">
                  <Button
                    variant="secondary"
                    className="px-3 py-1.5"
                    aria-label={`Nach oben: Frage ${index + 1}`}
                    disabled={index === 0}
                    onClick={() => move(index, -1)}
                  >
                    Nach oben
                  </Button>
                  <Button
                    variant="secondary"
                    className="px-3 py-1.5"
                    aria-label={`Nach unten: Frage ${index + 1}`}
                    disabled={index === draft.faq.length - 1}
                    onClick={() => move(index, 1)}
                  >
                    Nach unten
                  </Button>
                  <Button
                    variant="ghost"
                    className="px-3 py-1.5"
                    aria-label={`Entfernen: Frage ${index + 1}`}
                    disabled={draft.faq.length <= 1}
                    onClick={() => setDraft((d) => ({ ...d, faq: d.faq.filter((_, i) => i !== index) }))}
                  >
                    Entfernen
                  </Button>
                </div>
              </fieldset>
            </li>
          ))}
        </ol>
        {draft.faq.length < PUBLIC_TEXT_LIMITS.faqItems ? (
          <Button
            variant="secondary"
            className="self-start px-4 py-1.5"
            onClick={() =>
              setDraft((d) => ({ ...d, faq: [...d.faq, ...entriesOf([{ question: '', answer: '' }])] }))
            }
          >
            Frage hinzufügen
          </Button>
        ) : null}
      </PartSection>

      <div className="sticky bottom-4 z-10 flex flex-col gap-3 rounded-2xl border border-white/10 bg-night-900/95 p-4 backdrop-blur sm:flex-row sm:items-center sm:justify-between">
        <div className="flex flex-col gap-1 text-sm">
          {error ? (
            <p role="alert" className="text-red-300">
              {error}
            </p>
          ) : null}
          <p role="status" className={dirty ? 'text-gold-200' : 'text-ash-400'}>
            {dirty
              ? `Ungespeicherte Änderungen: ${changed.map((part) => PART_NAMES[part]).join(', ')}.`
              : 'Alle Änderungen sind gespeichert.'}
          </p>
        </div>
        <Button type="submit" disabled={save.isPending || !dirty}>
          {save.isPending ? (
            <>
              <Spinner /> Speichere...
            </>
          ) : (
            'Speichern'
          )}
        </Button>
      </div>
    </form>
  );
}

function TextsScreen() {
  const texts = useQuery(publicTextsQueryOptions);
  return (
    <section className="flex flex-1 flex-col gap-8">
      <div className="max-w-3xl">
        <p className="text-xs tracking-[0.3em] text-gold-400 uppercase">Adminbereich</p>
        <h1 className="mt-2 font-display text-4xl text-parchment">Texte</h1>
        <p className="mt-3 text-sm text-ash-300">
          Einführung, Veranstaltungsdetails und FAQ der Startseite, für jede Ausgabe einzeln. Solange Sie
          einen Teil nicht ändern, zeigt die Startseite den Standardtext. Eine neue Ausgabe übernimmt die
          Texte der Ausgabe, aus der sie angelegt wird.
        </p>
        <p className="mt-2 text-sm text-ash-400">
          Format: eine Leerzeile beginnt einen neuen Absatz; **fett**; Links als [Linktext](https://…) oder
          [Linktext](/seite); Listen mit „- “ am Zeilenanfang. HTML wird als Text angezeigt.{' '}
          {DEADLINE_PLACEHOLDER} steht für den Monat des Bewerbungsschlusses der Ausgabe.
        </p>
        {texts.data ? (
          <p className="mt-2 text-sm text-ash-300">
            {texts.data.updatedAt
              ? `Ausgabe ${texts.data.edition.year} · zuletzt geändert am ${formatDateTime(texts.data.updatedAt)} von ${texts.data.updatedBy}.`
              : `Ausgabe ${texts.data.edition.year} · bisher nicht geändert: Es gelten die Standardtexte.`}
          </p>
        ) : null}
      </div>
      {texts.isPending ? (
        <LoadingBlock label="Texte werden geladen..." className="h-96 bg-night-900" />
      ) : texts.isError ? (
        <LoadError title="Die Texte konnten nicht geladen werden" query={texts} />
      ) : (
        <TextsEditor key={texts.data.edition.year} view={texts.data} />
      )}
    </section>
  );
}

/** /admin/texte (admins): the landing page's public texts of the chosen edition, with a live preview. */
export function PublicTextsPage() {
  return (
    <AdminOnly>
      <TextsScreen />
    </AdminOnly>
  );
}
