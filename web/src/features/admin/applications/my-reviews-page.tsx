import { STATUS_LABELS, formatScore, venueDateTime } from '@schlosstreffen/shared';
import type { MyReviewItem } from '@schlosstreffen/shared/api';
import { useForm } from '@tanstack/react-form';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import * as v from 'valibot';
import { REVIEW_MESSAGES } from '@schlosstreffen/shared';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/form-field';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { EmptyState, LoadError, Loading } from '../../../components/ui/query-states';
import { notify } from '../../../components/ui/toaster';
import { CheckIcon } from '../../../components/ui/icons';
import { VehicleDetailDialog } from './vehicle-detail-dialog';
import { useDeclareConflict, useWithdrawConflict } from './review-mutations';
import {
  adminVehicleQueryOptions,
  myReviewsQueryOptions,
  reviewConflictsQueryOptions,
} from './review-queries';

const EmailSchema = v.pipe(
  v.string(),
  v.trim(),
  v.nonEmpty(REVIEW_MESSAGES.conflictEmail),
  v.email(REVIEW_MESSAGES.conflictEmail),
);

/** The application opened from the list: loaded with its owner, shown in the dashboard's dialog. */
function OpenApplication({ vehicleId, onClose }: { vehicleId: string | null; onClose: () => void }) {
  const vehicle = useQuery({ ...adminVehicleQueryOptions(vehicleId ?? ''), enabled: vehicleId !== null });
  // Refused (e.g. a bias declared since the review was submitted): the server says why.
  const failed = vehicleId !== null && vehicle.isError;
  useEffect(() => {
    if (!failed) return;
    notify.error('Bewerbung nicht verfügbar', vehicle.error, 'Die Bewerbung konnte nicht geladen werden.');
    onClose();
  }, [failed, vehicle.error, onClose]);
  return (
    <VehicleDetailDialog
      vehicle={vehicleId ? vehicle.data : undefined}
      open={vehicleId !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      initialTab="admin"
    />
  );
}

function ReviewRow({ item, onOpen }: { item: MyReviewItem; onOpen: (id: string) => void }) {
  return (
    <li className="flex flex-col gap-2 rounded-xl border border-white/10 bg-night-900/70 px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="truncate font-semibold text-parchment">{item.title}</p>
        <p className="text-sm text-ash-300">
          {item.ownerName} · {STATUS_LABELS[item.status]} ·{' '}
          {item.submittedAt
            ? `abgegeben am ${venueDateTime(new Date(item.submittedAt))}`
            : `zugewiesen am ${venueDateTime(new Date(item.assignedAt))}`}
        </p>
      </div>
      <div className="flex items-center gap-3">
        {item.total !== null ? (
          <span className="rounded-full border border-gold-500/40 px-2.5 py-0.5 text-sm font-semibold text-gold-200">
            {formatScore(item.total)}
          </span>
        ) : null}
        <Button variant="secondary" className="px-4 py-1.5" onClick={() => onOpen(item.vehicleId)}>
          {item.submittedAt ? 'Ansehen' : 'Prüfen'}
          <span className="sr-only">: {item.title}</span>
        </Button>
      </div>
    </li>
  );
}

/** 'Befangenheit': the people a reviewer is biased towards are never assigned to them. */
function Conflicts() {
  const list = useQuery(reviewConflictsQueryOptions);
  const declare = useDeclareConflict();
  const withdraw = useWithdrawConflict();
  const form = useForm({
    defaultValues: { email: '' },
    onSubmit: async ({ value, formApi }) => {
      try {
        await declare.mutateAsync(value.email.trim());
        notify.success('Eingetragen', 'Bewerbungen dieser Person werden Ihnen nicht mehr zugewiesen.');
        formApi.reset();
      } catch (error) {
        notify.error('Fehler', error, 'Die Person konnte nicht eingetragen werden.');
      }
    },
  });
  return (
    <section
      aria-labelledby="befangenheit"
      className="rounded-2xl border border-white/10 bg-night-900/60 p-5"
    >
      <h2 id="befangenheit" className="font-display text-2xl text-parchment">
        Befangenheit
      </h2>
      <p className="mt-2 text-sm text-ash-300">
        Tragen Sie Personen ein, deren Bewerbungen Sie nicht unvoreingenommen prüfen können (Familie, Freunde,
        Geschäftspartner). Ihnen zugewiesene offene Prüfungen gehen sofort an andere.
      </p>
      <form
        noValidate
        aria-label="Person eintragen"
        onSubmit={(event) => {
          event.preventDefault();
          void form.handleSubmit();
        }}
        className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-start"
      >
        <div className="flex-1">
          <form.Field name="email" validators={{ onSubmit: EmailSchema }}>
            {(field) => (
              <TextField field={field} label="E-Mail-Adresse der Person" type="email" autoComplete="off" />
            )}
          </form.Field>
        </div>
        <Button type="submit" className="sm:mt-7" disabled={declare.isPending}>
          {declare.isPending ? 'Trägt ein...' : 'Eintragen'}
        </Button>
      </form>
      {list.isPending ? (
        <p role="status" className="mt-4 text-sm text-ash-300">
          Liste wird geladen...
        </p>
      ) : list.isError ? (
        <p role="alert" className="mt-4 text-sm text-ash-300">
          Die Liste konnte nicht geladen werden.
        </p>
      ) : list.data.people.length === 0 ? (
        <p className="mt-4 text-sm text-ash-300">Sie haben keine Person eingetragen.</p>
      ) : (
        <ul aria-label="Eingetragene Personen" className="mt-4 flex flex-col gap-2">
          {list.data.people.map((person) => (
            <li
              key={person.id}
              className="flex items-center justify-between gap-3 rounded-lg border border-white/10 px-3 py-2 text-sm"
            >
              <span className="min-w-0 truncate text-parchment">
                {person.name} <span className="text-ash-400">({person.email})</span>
              </span>
              <Button
                variant="ghost"
                className="px-3 py-1"
                disabled={withdraw.isPending}
                onClick={() =>
                  withdraw.mutate(person.id, {
                    onError: (error) =>
                      notify.error('Fehler', error, 'Die Person konnte nicht entfernt werden.'),
                  })
                }
              >
                Entfernen<span className="sr-only">: {person.name}</span>
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * /admin/pruefungen, 'Meine Prüfungen': the signed-in reviewer's assigned applications with progress,
 * 'Nächste Bewerbung' opening the oldest open one, and their 'Befangenheit' list.
 */
export function MyReviewsPage() {
  const mine = useQuery(myReviewsQueryOptions);
  const [openId, setOpenId] = useState<string | null>(null);
  return (
    <section className="flex flex-1 flex-col gap-8">
      <div>
        <p className="text-xs tracking-[0.3em] text-gold-400 uppercase">Adminbereich</p>
        <h1 className="mt-2 font-display text-4xl text-parchment">Meine Prüfungen</h1>
      </div>
      {mine.isPending ? (
        <Loading label="Prüfungen werden geladen...">
          <div aria-hidden="true" className="flex flex-col gap-3">
            {[0, 1, 2].map((i) => (
              <div
                key={i}
                className="h-16 animate-pulse rounded-xl bg-night-900 motion-reduce:animate-none"
              />
            ))}
          </div>
        </Loading>
      ) : mine.isError ? (
        <LoadError title="Prüfungen konnten nicht geladen werden" query={mine} />
      ) : (
        <>
          {mine.data.open.length + mine.data.done.length === 0 ? (
            <EmptyState icon={<CheckIcon className="size-8" />} title="Keine Prüfungen zugewiesen">
              Sobald Bewerbungen eingehen, werden sie gleichmäßig auf die Prüferinnen und Prüfer verteilt.
            </EmptyState>
          ) : (
            <div className="flex flex-col gap-4 rounded-2xl border border-white/10 bg-night-900/60 p-5 sm:flex-row sm:items-center sm:justify-between">
              <ProgressBar
                className="flex-1"
                label="Fortschritt"
                value={mine.data.done.length}
                max={mine.data.open.length + mine.data.done.length}
                valueText={`${mine.data.done.length} von ${mine.data.open.length + mine.data.done.length} geprüft`}
              />
              <Button
                disabled={!mine.data.next}
                onClick={() => mine.data.next && setOpenId(mine.data.next)}
                className="sm:ml-6"
              >
                {mine.data.next ? 'Nächste Bewerbung' : 'Alle geprüft'}
              </Button>
            </div>
          )}
          {mine.data.open.length ? (
            <div>
              <h2 className="font-display text-2xl text-parchment">Offen ({mine.data.open.length})</h2>
              <ul aria-label="Offene Prüfungen" className="mt-3 flex flex-col gap-2">
                {mine.data.open.map((item) => (
                  <ReviewRow key={item.vehicleId} item={item} onOpen={setOpenId} />
                ))}
              </ul>
            </div>
          ) : null}
          {mine.data.done.length ? (
            <div>
              <h2 className="font-display text-2xl text-parchment">Abgegeben ({mine.data.done.length})</h2>
              <ul aria-label="Abgegebene Prüfungen" className="mt-3 flex flex-col gap-2">
                {mine.data.done.map((item) => (
                  <ReviewRow key={item.vehicleId} item={item} onOpen={setOpenId} />
                ))}
              </ul>
            </div>
          ) : null}
        </>
      )}
      <Conflicts />
      <OpenApplication vehicleId={openId} onClose={() => setOpenId(null)} />
    </section>
  );
}
