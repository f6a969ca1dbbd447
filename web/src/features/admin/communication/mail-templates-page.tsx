import {
  fillMail,
  isMailKey,
  isRequiredPlaceholder,
  MAIL_DEFINITIONS,
  MAIL_GROUPS,
  MAIL_KEYS,
  MAIL_TEXT_LIMITS,
  mailTextProblems,
  placeholderMeaning,
  placeholdersOf,
  templateOfMail,
  type FilledMail,
  type MailInline,
  type MailKey,
  type MailText,
} from '@schlosstreffen/shared';
import type { MailTemplateSummary, MailTemplateView, ServerMessage } from '@schlosstreffen/shared/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { Fragment, useMemo, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { inputClass } from '../../../components/ui/form-field';
import { LoadError, LoadingBlock } from '../../../components/ui/query-states';
import { SelectField } from '../../../components/ui/select';
import { Spinner } from '../../../components/ui/spinner';
import { notify } from '../../../components/ui/toaster';
import { api } from '../../../lib/api';
import { formatDateTime } from '../../../lib/date-format';
import { confirmDiscard, useUnsavedChanges } from '../../../lib/unsaved-changes';
import { AdminOnly } from '../admin-layout';
import {
  mailSampleQueryOptions,
  mailTemplateListQueryOptions,
  mailTemplateQueryOptions,
} from './mail-templates-queries';

const route = getRouteApi('/admin/mail-vorlagen');

/** The made-up data's choice in the preview's select. */
const MADE_UP = 'beispiel';

function VersionBadge({ summary }: { summary: Pick<MailTemplateSummary, 'version' | 'isDefault'> }) {
  const edited = !summary.isDefault;
  return (
    <span
      className={`shrink-0 rounded-full border px-2 py-0.5 text-xs ${edited ? 'border-gold-500/40 text-gold-200' : 'border-white/15 text-ash-300'}`}
    >
      {edited ? `Version ${summary.version}` : 'Standardtext'}
    </span>
  );
}

function Inline({ parts }: { parts: MailInline[] }) {
  return parts.map((part, index) =>
    'text' in part ? (
      <Fragment key={index}>{part.text}</Fragment>
    ) : 'bold' in part ? (
      <strong key={index}>{part.bold}</strong>
    ) : (
      <a
        key={index}
        href={part.href}
        target="_blank"
        rel="noopener noreferrer"
        className="text-gold-300 underline"
      >
        {part.label}
      </a>
    ),
  );
}

/** The mail as the recipient's client shows it: subject, then the event's dark frame with the text. */
function MailPreview({ mail, mailKey }: { mail: FilledMail; mailKey: MailKey }) {
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-ash-300">
        <span className="text-ash-400">Betreff: </span>
        <span className="font-semibold text-parchment" data-testid="vorschau-betreff">
          {mail.subject}
        </span>
      </p>
      <div className="rounded-2xl bg-[#0b0b0f] p-4 sm:p-6">
        <p className="mb-4 text-xs tracking-[0.3em] text-[#d4a24c]">SCHLOSSTREFFEN</p>
        <div className="rounded-xl bg-[#16161d] p-5 text-[15px] leading-6 text-[#e9e6df] sm:p-7">
          <h3 className="mb-5 text-2xl font-semibold">{mail.title}</h3>
          {mail.blocks.map((block, index) =>
            block.kind === 'button' ? (
              <div key={index} className="mb-4">
                <span className="inline-block rounded-md bg-[#d4a24c] px-5 py-2.5 font-bold text-[#0b0b0f]">
                  {block.label}
                </span>
                <p className="mt-3 text-xs break-all text-[#9a968c]">
                  Falls der Button nicht funktioniert, öffne diesen Link: {block.href}
                </p>
              </div>
            ) : block.kind === 'list' ? (
              <ul key={index} className="mb-4 list-disc pl-5">
                {block.items.map((item, at) => (
                  <li key={at}>
                    <Inline parts={item} />
                  </li>
                ))}
              </ul>
            ) : (
              <p key={index} className="mb-4">
                {block.lines.map((line, at) => (
                  <Fragment key={at}>
                    {at > 0 ? <br /> : null}
                    <Inline parts={line} />
                  </Fragment>
                ))}
              </p>
            ),
          )}
          {templateOfMail(mailKey) === 'invitation' ? (
            <p className="mt-2 rounded-lg border border-dashed border-white/20 p-3 text-center text-xs text-[#9a968c]">
              Hier folgen der QR-Code und der Check-in-Code der Einladung.
            </p>
          ) : null}
        </div>
        <p className="mt-4 text-xs text-[#9a968c]">
          Schlosstreffen · Tuning-Treffen am Schloss in Sachsen. Diese E-Mail wurde automatisch versendet.
          Datenschutz · Impressum
        </p>
      </div>
    </div>
  );
}

interface EditorShared {
  /** The application whose data fills the preview (kept across mails and saves). */
  sampleChoice: string;
  setSampleChoice: (choice: string) => void;
}

function MailEditor({
  mailKey,
  view,
  shared: { sampleChoice, setSampleChoice },
}: {
  mailKey: MailKey;
  view: MailTemplateView;
  shared: EditorShared;
}) {
  const definition = MAIL_DEFINITIONS[mailKey];
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<MailText>({ subject: view.subject, body: view.body });
  const [touched, setTouched] = useState(false);
  const body = useRef<HTMLTextAreaElement>(null);
  const dirty = draft.subject !== view.subject || draft.body !== view.body;
  // Reloading, another mail or another edition asks before unsaved changes go.
  useUnsavedChanges(dirty);
  const problems = useMemo(() => mailTextProblems(mailKey, draft), [mailKey, draft]);
  const sample = useQuery(mailSampleQueryOptions(mailKey, sampleChoice === MADE_UP ? '' : sampleChoice));
  const filled = useMemo(
    () => (sample.data ? fillMail(mailKey, draft, sample.data.values) : null),
    [mailKey, draft, sample.data],
  );

  // The new version starts the editor afresh with its text (MailEditorLoader's key).
  const saved = (next: MailTemplateView) => {
    queryClient.setQueryData(mailTemplateQueryOptions(mailKey).queryKey, next);
    void queryClient.invalidateQueries({ queryKey: mailTemplateListQueryOptions.queryKey });
  };
  const onConflict = (error: unknown, fallback: string) => {
    notify.error('Nicht gespeichert', error, fallback);
    void queryClient.invalidateQueries({ queryKey: mailTemplateQueryOptions(mailKey).queryKey });
  };
  const path = `/api/admin/mail-templates/${encodeURIComponent(mailKey)}`;
  const save = useMutation({
    mutationFn: () => api.put<MailTemplateView>(path, { ...draft, baseVersion: view.version }),
    onSuccess: (next) => {
      saved(next);
      notify.success(
        'Gespeichert',
        `${definition.label}: Version ${next.version} gilt ab der nächsten E-Mail.`,
      );
    },
    onError: (error) => onConflict(error, 'Die Vorlage konnte nicht gespeichert werden.'),
  });
  const restore = useMutation({
    mutationFn: () => api.post<MailTemplateView>(`${path}/restore`, { baseVersion: view.version }),
    onSuccess: (next) => {
      saved(next);
      notify.success('Standard wiederhergestellt', `${definition.label}: Es gilt wieder der Standardtext.`);
    },
    onError: (error) => onConflict(error, 'Der Standardtext konnte nicht wiederhergestellt werden.'),
  });
  const test = useMutation({
    mutationFn: () =>
      api.post<ServerMessage>(`${path}/test`, {
        ...draft,
        vehicleId: sampleChoice === MADE_UP ? null : sampleChoice,
      }),
    onSuccess: (answer) => notify.success('Testmail gesendet', answer.message),
    onError: (error) => notify.error('Testmail nicht gesendet', error, 'Bitte versuchen Sie es erneut.'),
  });

  const insert = (name: string) => {
    const area = body.current;
    const token = `{${name}}`;
    const at = area ? area.selectionStart : draft.body.length;
    const end = area ? area.selectionEnd : at;
    setDraft((d) => ({ ...d, body: d.body.slice(0, at) + token + d.body.slice(end) }));
    setTouched(true);
    requestAnimationFrame(() => {
      area?.focus();
      area?.setSelectionRange(at + token.length, at + token.length);
    });
  };

  const showProblems = touched || dirty;
  const sampleOptions = [
    { value: MADE_UP, label: 'Beispieldaten (Max, BMW M3 E46)' },
    ...(sample.data?.vehicles ?? []).map((vehicle) => ({ value: vehicle.id, label: vehicle.title })),
  ];

  return (
    <form
      aria-label={`Vorlage: ${definition.label}`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setTouched(true);
        if (!problems.length) save.mutate();
      }}
      className="flex flex-col gap-6"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="max-w-2xl">
          <div className="flex flex-wrap items-center gap-3">
            <h2 className="font-display text-3xl text-parchment">{definition.label}</h2>
            <VersionBadge summary={view} />
          </div>
          <p className="mt-2 text-sm text-ash-300">{definition.when}</p>
          <p className="mt-1 text-sm text-ash-400">
            {view.changedAt
              ? `Zuletzt geändert am ${formatDateTime(view.changedAt)} von ${view.changedBy}.`
              : 'Bisher nicht geändert: Es gilt der Standardtext.'}
          </p>
        </div>
        <Button
          variant="ghost"
          className="px-3 py-1.5"
          disabled={view.isDefault || restore.isPending}
          onClick={() => restore.mutate()}
        >
          {restore.isPending ? (
            <>
              <Spinner /> Stelle wieder her...
            </>
          ) : (
            'Standard wiederherstellen'
          )}
        </Button>
      </div>

      <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_16rem]">
        <div className="flex flex-col gap-4">
          <div className="flex flex-col gap-1.5">
            <label htmlFor="vorlage-betreff" className="text-sm font-medium text-ash-300">
              Betreff
            </label>
            <input
              id="vorlage-betreff"
              className={inputClass}
              value={draft.subject}
              maxLength={MAIL_TEXT_LIMITS.subject + 50}
              onChange={(event) => {
                setTouched(true);
                setDraft((d) => ({ ...d, subject: event.target.value }));
              }}
            />
          </div>
          <div className="flex flex-col gap-1.5">
            <label htmlFor="vorlage-text" className="text-sm font-medium text-ash-300">
              Text
            </label>
            <textarea
              id="vorlage-text"
              ref={body}
              rows={16}
              className={`${inputClass} min-h-64 resize-y font-mono text-sm leading-relaxed`}
              value={draft.body}
              onChange={(event) => {
                setTouched(true);
                setDraft((d) => ({ ...d, body: event.target.value }));
              }}
            />
            <span
              className={`text-xs ${draft.body.length > MAIL_TEXT_LIMITS.body ? 'text-red-300' : 'text-ash-400'}`}
            >
              {draft.body.length}/{MAIL_TEXT_LIMITS.body.toLocaleString('de-DE')} Zeichen
            </span>
          </div>
          {showProblems && problems.length ? (
            <ul
              role="alert"
              className="flex flex-col gap-1 rounded-xl border border-red-500/40 bg-red-500/10 p-3 text-sm text-red-200"
            >
              {problems.map((problem, index) => (
                <li key={index}>
                  {problem.field === 'subject' ? 'Betreff: ' : 'Text: '}
                  {problem.message}
                </li>
              ))}
            </ul>
          ) : null}
        </div>

        <aside aria-labelledby="platzhalter" className="flex flex-col gap-2">
          <h3 id="platzhalter" className="text-sm font-semibold text-parchment">
            Platzhalter
          </h3>
          <p className="text-xs text-ash-400">Klicken fügt ihn an der Schreibmarke in den Text ein.</p>
          <ul className="flex flex-col gap-1.5">
            {placeholdersOf(mailKey).map((name) => {
              const required = isRequiredPlaceholder(mailKey, name);
              const meaning = placeholderMeaning(mailKey, name);
              return (
                <li key={name}>
                  <button
                    type="button"
                    onClick={() => insert(name)}
                    className="w-full rounded-lg border border-white/10 px-2.5 py-1.5 text-left hover:border-gold-500/40 hover:bg-white/5"
                  >
                    <code className="text-sm text-gold-200">{`{${name}}`}</code>
                    <span className="sr-only"> einfügen</span>
                    {required ? (
                      <span className="ml-2 rounded-full border border-gold-500/40 px-1.5 text-[11px] text-gold-200">
                        Pflicht
                      </span>
                    ) : null}
                    <span className="block text-xs text-ash-400">{meaning}</span>
                  </button>
                </li>
              );
            })}
          </ul>
        </aside>
      </div>

      <section
        aria-label="Vorschau"
        className="flex flex-col gap-3 rounded-2xl border border-white/10 bg-night-900/60 p-5"
      >
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h3 className="font-display text-2xl text-parchment">Vorschau</h3>
          <div className="w-full max-w-sm">
            <SelectField
              label="Mit den Daten von"
              options={sampleOptions}
              value={sampleChoice}
              alwaysSet
              onValueChange={(value) => setSampleChoice(value || MADE_UP)}
            />
          </div>
        </div>
        {sample.isError ? (
          <LoadError title="Die Daten für die Vorschau konnten nicht geladen werden" query={sample} />
        ) : filled ? (
          <MailPreview mail={filled} mailKey={mailKey} />
        ) : (
          <LoadingBlock label="Vorschau wird geladen..." className="h-64 bg-night-950" />
        )}
      </section>

      <section aria-labelledby="versionen" className="flex flex-col gap-2">
        <h3 id="versionen" className="text-sm font-semibold text-parchment">
          Versionen
        </h3>
        {view.versions.length ? (
          <ol className="flex flex-col gap-1 text-sm text-ash-300">
            {view.versions.map((version) => (
              <li key={version.version}>
                <span className="font-semibold text-parchment">Version {version.version}</span> ·{' '}
                {formatDateTime(version.createdAt)} · {version.createdBy}
                {version.isDefault ? ' · Standard wiederhergestellt' : ` · „${version.subject}“`}
              </li>
            ))}
          </ol>
        ) : (
          <p className="text-sm text-ash-400">Noch keine Version: Es gilt der Standardtext.</p>
        )}
      </section>

      <div className="sticky bottom-4 z-10 flex flex-col gap-3 rounded-2xl border border-white/10 bg-night-900/95 p-4 backdrop-blur sm:flex-row sm:items-center sm:justify-between">
        <p role="status" className={`text-sm ${dirty ? 'text-gold-200' : 'text-ash-400'}`}>
          {dirty ? 'Ungespeicherte Änderungen.' : 'Alle Änderungen sind gespeichert.'}
        </p>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            disabled={test.isPending || problems.length > 0}
            onClick={() => test.mutate()}
          >
            {test.isPending ? (
              <>
                <Spinner /> Sende...
              </>
            ) : (
              'Testmail an mich'
            )}
          </Button>
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
      </div>
    </form>
  );
}

function MailEditorLoader({
  mailKey,
  year,
  shared,
}: {
  mailKey: MailKey;
  year: number;
  shared: EditorShared;
}) {
  const view = useQuery(mailTemplateQueryOptions(mailKey));
  if (view.isPending) return <LoadingBlock label="Vorlage wird geladen..." className="h-96 bg-night-900" />;
  if (view.isError) return <LoadError title="Die Vorlage konnte nicht geladen werden" query={view} />;
  // A new version (saved here or elsewhere) starts the editor afresh.
  return (
    <MailEditor
      key={`${year}-${mailKey}-${view.data.version}`}
      mailKey={mailKey}
      view={view.data}
      shared={shared}
    />
  );
}

function MailTemplatesScreen() {
  const list = useQuery(mailTemplateListQueryOptions);
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const queryClient = useQueryClient();
  const selected: MailKey = search.mail && isMailKey(search.mail) ? search.mail : 'application-received';
  const summaries = new Map(list.data?.mails.map((mail) => [mail.key, mail]));
  const [sampleChoice, setSampleChoice] = useState(MADE_UP);

  const choose = (key: MailKey) => {
    if (key === selected) return;
    if (!confirmDiscard()) return;
    void navigate({ search: { mail: key }, replace: true });
  };

  return (
    <section className="flex flex-1 flex-col gap-8">
      <div className="max-w-3xl">
        <p className="text-xs tracking-[0.3em] text-gold-400 uppercase">Adminbereich</p>
        <h1 className="mt-2 font-display text-4xl text-parchment">E-Mail-Vorlagen</h1>
        <p className="mt-3 text-sm text-ash-300">
          Betreff und Text jeder E-Mail, für jede Ausgabe einzeln. Platzhalter in geschweiften Klammern werden
          beim Versand mit den Daten der Bewerbung gefüllt. Jede Änderung wird als Version mit Datum und
          Bearbeiter gespeichert und gilt ab der nächsten E-Mail; das E-Mail-Protokoll nennt die Version.
        </p>
        <p className="mt-2 text-sm text-ash-400">
          Format: eine Leerzeile beginnt einen neuen Absatz; **fett**; Links als [Linktext]({'{link}'}); ein
          Absatz, der nur aus einem Link besteht, wird als Button dargestellt; Listen mit „- “ am
          Zeilenanfang.
        </p>
        {list.data ? <p className="mt-2 text-sm text-ash-300">Ausgabe {list.data.edition.year}</p> : null}
      </div>
      {list.isPending ? (
        <LoadingBlock label="Vorlagen werden geladen..." className="h-96 bg-night-900" />
      ) : list.isError ? (
        <LoadError title="Die Vorlagen konnten nicht geladen werden" query={list} />
      ) : (
        <div className="grid gap-8 lg:grid-cols-[16rem_minmax(0,1fr)]">
          <nav aria-label="E-Mails" className="flex flex-col gap-5">
            {MAIL_GROUPS.map((group) => (
              <div key={group}>
                <h2 className="mb-2 text-xs font-semibold tracking-[0.2em] text-ash-400 uppercase">
                  {group}
                </h2>
                <ul className="flex flex-col gap-1">
                  {MAIL_KEYS.filter((key) => MAIL_DEFINITIONS[key].group === group).map((key) => {
                    const summary = summaries.get(key);
                    return (
                      <li key={key}>
                        <button
                          type="button"
                          aria-current={key === selected ? 'page' : undefined}
                          onClick={() => choose(key)}
                          onMouseEnter={() => void queryClient.prefetchQuery(mailTemplateQueryOptions(key))}
                          className="flex w-full items-center justify-between gap-2 rounded-lg px-3 py-2 text-left text-sm text-ash-300 hover:bg-white/5 hover:text-parchment aria-[current=page]:bg-gold-500/15 aria-[current=page]:text-gold-100"
                        >
                          <span>{MAIL_DEFINITIONS[key].label}</span>
                          {summary ? <VersionBadge summary={summary} /> : null}
                        </button>
                      </li>
                    );
                  })}
                </ul>
              </div>
            ))}
          </nav>
          <MailEditorLoader
            mailKey={selected}
            year={list.data.edition.year}
            shared={{ sampleChoice, setSampleChoice }}
          />
        </div>
      )}
    </section>
  );
}

/** /admin/mail-vorlagen (admins): the chosen edition's mail texts, with placeholders and a preview. */
export function MailTemplatesPage() {
  return (
    <AdminOnly>
      <MailTemplatesScreen />
    </AdminOnly>
  );
}
