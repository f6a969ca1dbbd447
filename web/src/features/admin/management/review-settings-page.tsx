import { REVIEW_LIMITS, REVIEW_MESSAGES, ReviewSettingsSchema } from '@schlosstreffen/shared';
import type { ReviewSettings } from '@schlosstreffen/shared/api';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import * as v from 'valibot';
import { Button } from '../../../components/ui/button';
import { inputClass } from '../../../components/ui/form-field';
import { LoadError, LoadingBlock } from '../../../components/ui/query-states';
import { Spinner } from '../../../components/ui/spinner';
import { notify } from '../../../components/ui/toaster';
import { AdminOnly } from '../admin-layout';
import { useSaveReviewSettings } from '../applications/review-mutations';
import { reviewLoadQueryOptions, reviewSettingsQueryOptions } from '../applications/review-queries';

interface Draft {
  reviewersPerApplication: string;
  categories: Array<{ id: string | null; name: string; weight: string }>;
}

const draftOf = (settings: ReviewSettings): Draft => ({
  reviewersPerApplication: String(settings.reviewersPerApplication),
  categories: settings.categories.map((c) => ({ id: c.id, name: c.name, weight: String(c.weight) })),
});

/** The edition's reviewers per application and its categories with weights; fixed once a review is in. */
function SettingsForm({ settings }: { settings: ReviewSettings }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(settings));
  const [error, setError] = useState<string | null>(null);
  const save = useSaveReviewSettings();
  const fixed = settings.categoriesFixed;
  const setCategory = (index: number, change: Partial<Draft['categories'][number]>) =>
    setDraft((d) => ({
      ...d,
      categories: d.categories.map((c, i) => (i === index ? { ...c, ...change } : c)),
    }));
  const totalWeight = draft.categories.reduce((sum, c) => sum + (Number(c.weight) || 0), 0);

  const submit = async () => {
    const parsed = v.safeParse(ReviewSettingsSchema, {
      reviewersPerApplication: Number(draft.reviewersPerApplication),
      categories: draft.categories.map((c) => ({ id: c.id, name: c.name, weight: Number(c.weight) })),
    });
    if (!parsed.success) {
      setError(parsed.issues[0].message);
      return;
    }
    setError(null);
    try {
      const saved = await save.mutateAsync(parsed.output);
      setDraft(draftOf(saved));
      notify.success('Gespeichert', 'Die Einstellungen der Prüfung wurden gespeichert.');
    } catch (failure) {
      notify.error('Fehler', failure, 'Die Einstellungen konnten nicht gespeichert werden.');
    }
  };

  return (
    <form
      aria-label="Einstellungen der Prüfung"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      className="flex flex-col gap-5 rounded-2xl border border-white/10 bg-night-900/60 p-5"
    >
      <h2 className="font-display text-2xl text-parchment">Einstellungen</h2>
      <div className="flex flex-col gap-1.5 sm:w-64">
        <label htmlFor="reviewers-per-application" className="text-sm font-medium text-ash-300">
          Prüfende pro Bewerbung
        </label>
        <input
          id="reviewers-per-application"
          inputMode="numeric"
          className={inputClass}
          value={draft.reviewersPerApplication}
          onChange={(event) => setDraft((d) => ({ ...d, reviewersPerApplication: event.target.value }))}
        />
      </div>
      <fieldset className="flex flex-col gap-3">
        <legend className="text-sm font-medium text-ash-300">
          Kategorien (je {REVIEW_LIMITS.score.min}–{REVIEW_LIMITS.score.max} Punkte, Gewichtung{' '}
          {REVIEW_LIMITS.weight.min}–{REVIEW_LIMITS.weight.max})
        </legend>
        {fixed ? (
          <p className="text-sm text-ash-400">
            Es wurden bereits Bewertungen abgegeben: Kategorien lassen sich nur noch umbenennen und neu
            gewichten. Abgegebene Bewertungen folgen der neuen Gewichtung sofort.
          </p>
        ) : null}
        {draft.categories.map((category, index) => (
          <div
            key={category.id ?? `new-${index}`}
            className={`grid items-end gap-2 ${fixed ? 'grid-cols-[1fr_6rem]' : 'grid-cols-[1fr_6rem_auto]'}`}
          >
            <div className="flex flex-col gap-1">
              <label htmlFor={`category-${index}`} className="text-xs text-ash-400">
                Name
              </label>
              <input
                id={`category-${index}`}
                className={inputClass}
                maxLength={REVIEW_LIMITS.categoryName}
                value={category.name}
                onChange={(event) => setCategory(index, { name: event.target.value })}
              />
            </div>
            <div className="flex flex-col gap-1">
              <label htmlFor={`weight-${index}`} className="text-xs text-ash-400">
                Gewicht
              </label>
              <input
                id={`weight-${index}`}
                inputMode="numeric"
                className={inputClass}
                value={category.weight}
                onChange={(event) => setCategory(index, { weight: event.target.value })}
              />
            </div>
            {fixed ? null : (
              <Button
                variant="ghost"
                className="px-3 py-2.5"
                disabled={draft.categories.length <= REVIEW_LIMITS.categories.min}
                onClick={() =>
                  setDraft((d) => ({ ...d, categories: d.categories.filter((_, i) => i !== index) }))
                }
              >
                Entfernen<span className="sr-only">: {category.name}</span>
              </Button>
            )}
            <p className="col-span-full text-xs text-ash-400">
              Anteil an der Bewertung:{' '}
              {totalWeight ? `${Math.round(((Number(category.weight) || 0) / totalWeight) * 100)} %` : '–'}
            </p>
          </div>
        ))}
        {!fixed && draft.categories.length < REVIEW_LIMITS.categories.max ? (
          <Button
            variant="secondary"
            className="self-start px-4 py-1.5"
            onClick={() =>
              setDraft((d) => ({ ...d, categories: [...d.categories, { id: null, name: '', weight: '1' }] }))
            }
          >
            Kategorie hinzufügen
          </Button>
        ) : null}
      </fieldset>
      {error ? (
        <p role="alert" className="text-sm text-red-300">
          {error}
        </p>
      ) : null}
      <div>
        <Button type="submit" disabled={save.isPending}>
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

/** Open and submitted reviews per reviewer; applications short of reviewers. */
function Load() {
  const load = useQuery(reviewLoadQueryOptions);
  if (load.isPending)
    return <LoadingBlock label="Auslastung wird geladen..." className="h-48 bg-night-900" />;
  if (load.isError) return <LoadError title="Die Auslastung konnte nicht geladen werden" query={load} />;
  const { reviewers, inReview, understaffed, understaffedApplications, perApplication } = load.data;
  return (
    <section aria-labelledby="auslastung" className="rounded-2xl border border-white/10 bg-night-900/60 p-5">
      <h2 id="auslastung" className="font-display text-2xl text-parchment">
        Auslastung
      </h2>
      <p className="mt-2 text-sm text-ash-300">
        {inReview === 1 ? '1 Bewerbung' : `${inReview} Bewerbungen`} in Prüfung.{' '}
        {understaffed
          ? `${understaffed === 1 ? 'Eine davon ist' : `${understaffed} davon sind`} ${REVIEW_MESSAGES.understaffed}: Es gibt nicht genug Prüfende, die sie prüfen dürfen (nicht Halter, nicht befangen, keine durch Befangenheit beendete Prüfung).`
          : 'Alle sind vollständig zugewiesen.'}{' '}
        Offene Prüfungen werden automatisch gleichmäßig verteilt; einzelne weisen Sie im Dialog einer
        Bewerbung unter „Admin“ neu zu.
      </p>
      {understaffedApplications.length ? (
        <ul aria-label={`Bewerbungen, ${REVIEW_MESSAGES.understaffed}`} className="mt-4 flex flex-col gap-2">
          {understaffedApplications.map((a) => (
            <li
              key={a.vehicleId}
              className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border border-white/10 px-3 py-2 text-sm"
            >
              <span className="font-semibold text-parchment">{a.title}</span>
              <span className="text-ash-400">{a.ownerName}</span>
              <span className="rounded-full border border-orange-400/40 bg-orange-500/10 px-2 py-0.5 text-xs text-orange-100">
                {REVIEW_MESSAGES.understaffed}: {a.assigned} von {perApplication}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {reviewers.length === 0 ? (
        <p className="mt-4 text-sm text-ash-300">
          Noch niemand hat die Rolle Prüfer. Vergeben Sie sie unter „Team“ oder mit der Kommandozeile.
        </p>
      ) : (
        // Scrolls sideways on narrow screens: focusable, so a keyboard can scroll it too.
        <div
          role="region"
          aria-labelledby="auslastung"
          tabIndex={0}
          className="mt-4 overflow-x-auto rounded-lg focus-visible:outline-2 focus-visible:outline-gold-400"
        >
          <table className="w-full min-w-[32rem] text-left text-sm">
            <thead className="text-ash-400">
              <tr>
                <th scope="col" className="py-2 pr-4 font-medium">
                  Person
                </th>
                <th scope="col" className="py-2 pr-4 text-right font-medium">
                  Offen
                </th>
                <th scope="col" className="py-2 pr-4 text-right font-medium">
                  Abgegeben
                </th>
                <th scope="col" className="py-2 text-right font-medium">
                  Befangen bei
                </th>
              </tr>
            </thead>
            <tbody>
              {reviewers.map((r) => (
                <tr key={r.id} className="border-t border-white/10">
                  <td className="py-2 pr-4 text-parchment">
                    {r.name} <span className="block text-xs text-ash-400">{r.email}</span>
                  </td>
                  <td className="py-2 pr-4 text-right text-parchment tabular-nums">{r.open}</td>
                  <td className="py-2 pr-4 text-right text-parchment tabular-nums">{r.submitted}</td>
                  <td className="py-2 text-right text-parchment tabular-nums">
                    {r.conflicts === 1 ? '1 Person' : `${r.conflicts} Personen`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function ReviewSettingsScreen() {
  const settings = useQuery(reviewSettingsQueryOptions);
  return (
    <section className="flex flex-1 flex-col gap-8">
      <div className="max-w-2xl">
        <p className="text-xs tracking-[0.3em] text-gold-400 uppercase">Adminbereich</p>
        <h1 className="mt-2 font-display text-4xl text-parchment">Prüfung</h1>
        <p className="mt-3 text-sm text-ash-300">
          Jede eingereichte Bewerbung bekommt so viele Prüfende wie eingestellt, nie die eigene und nie bei
          erklärter Befangenheit. Die Bewertung einer Bewerbung ist das Mittel der abgegebenen Bewertungen
          nach Gewichtung; nach ihr rückt die Warteliste nach.
        </p>
      </div>
      <div className="grid gap-6 lg:grid-cols-2 lg:items-start">
        {settings.isPending ? (
          <LoadingBlock label="Einstellungen werden geladen..." className="h-72 bg-night-900" />
        ) : settings.isError ? (
          <LoadError title="Die Einstellungen konnten nicht geladen werden" query={settings} />
        ) : (
          <SettingsForm settings={settings.data} />
        )}
        <Load />
      </div>
    </section>
  );
}

/** /admin/pruefung (admins): how the edition's applications are reviewed, and the load per reviewer. */
export function ReviewSettingsPage() {
  return (
    <AdminOnly>
      <ReviewSettingsScreen />
    </AdminOnly>
  );
}
