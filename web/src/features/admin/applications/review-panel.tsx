import {
  REVIEW_LIMITS,
  REVIEW_MESSAGES,
  formatScore,
  venueDateTime,
  type ReviewCategory,
} from '@schlosstreffen/shared';
import type { ReviewView, VehicleReview } from '@schlosstreffen/shared/api';
import { useForm } from '@tanstack/react-form';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import * as v from 'valibot';
import { Button } from '../../../components/ui/button';
import { fieldError, inputClass } from '../../../components/ui/form-field';
import { SelectField } from '../../../components/ui/select';
import { Spinner } from '../../../components/ui/spinner';
import { TextAreaField } from '../../../components/ui/textarea';
import { errorText, notify } from '../../../components/ui/toaster';
import { useCurrentUser } from '../../../lib/current-user';
import { useReassign, useSubmitReview } from './review-mutations';
import { vehicleReviewQueryOptions } from './review-queries';

/** A typed score: a whole number 0–10 (the shared rule), empty counts as missing. */
const scoreField = (name: string) =>
  v.pipe(
    v.string(),
    v.nonEmpty(REVIEW_MESSAGES.scoreMissing(name)),
    v.check(
      (value) => /^\d{1,2}$/.test(value.trim()) && Number(value) <= REVIEW_LIMITS.score.max,
      REVIEW_MESSAGES.scoreRange,
    ),
  );

/**
 * Why scores are hidden (blind review): until one's own review is submitted; a reviewer without an
 * open review of it never sees them.
 */
export function hiddenScoreText(view: Pick<VehicleReview, 'mine'>): string {
  return view.mine && !view.mine.submitted
    ? 'Sichtbar, sobald Sie Ihre Bewertung abgegeben haben'
    : 'Verborgen: sichtbar für Admins und für Prüfende, die ihre eigene Bewertung abgegeben haben';
}

/** '7,2 (Spanne 7–7,4) aus 2 Bewertungen' */
export function scoreSummary(score: VehicleReview['score']): string {
  if (score.mean === null)
    return score.assigned ? `Noch keine Bewertung abgegeben (0 von ${score.assigned})` : 'Keine Bewertung';
  const spread =
    score.min !== null && score.max !== null && score.max !== score.min
      ? ` (Spanne ${formatScore(score.min)}–${formatScore(score.max)})`
      : '';
  return `${formatScore(score.mean)}${spread} · ${score.submitted} von ${score.assigned} Bewertungen abgegeben`;
}

/** The reviewer's own form: one score per category (0–10), an optional note, 'Bewertung abgeben'. */
function ReviewForm({ vehicleId, categories }: { vehicleId: string; categories: ReviewCategory[] }) {
  const mutation = useSubmitReview(vehicleId);
  const form = useForm({
    // A second press after one wrong score still checks every score and names each missing one.
    canSubmitWhenInvalid: true,
    defaultValues: {
      scores: Object.fromEntries(categories.map((c) => [c.id, ''])) as Record<string, string>,
      comment: '',
    },
    onSubmit: async ({ value }) => {
      try {
        await mutation.mutateAsync({
          scores: Object.fromEntries(Object.entries(value.scores).map(([id, score]) => [id, Number(score)])),
          comment: value.comment.trim() || null,
        });
        notify.success('Bewertung abgegeben', 'Ihre Bewertung wurde gespeichert.');
      } catch (error) {
        notify.error('Fehler', error, 'Die Bewertung konnte nicht gespeichert werden.');
      }
    },
  });
  return (
    <form
      aria-label="Bewertung abgeben"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void form.handleSubmit();
      }}
      className="flex flex-col gap-4"
    >
      <p className="text-sm text-ash-300">
        Bewerten Sie jede Kategorie von {REVIEW_LIMITS.score.min} bis {REVIEW_LIMITS.score.max}.
      </p>
      <div className="grid gap-4 sm:grid-cols-3">
        {categories.map((category) => (
          <form.Field
            key={category.id}
            name={`scores.${category.id}`}
            validators={{ onChange: scoreField(category.name), onSubmit: scoreField(category.name) }}
          >
            {(field) => {
              const error = fieldError(field);
              const id = `score-${category.id}`;
              return (
                <div className="flex flex-col gap-1.5">
                  <label htmlFor={id} className="text-sm font-medium text-ash-300">
                    {category.name} <span className="text-ash-400">(Gewicht {category.weight})</span>
                    <span aria-hidden="true"> *</span>
                  </label>
                  <input
                    id={id}
                    name={id}
                    inputMode="numeric"
                    autoComplete="off"
                    required
                    value={field.state.value}
                    onChange={(event) => field.handleChange(event.target.value)}
                    onBlur={field.handleBlur}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={error ? `${id}-error` : undefined}
                    placeholder="0–10"
                    className={inputClass}
                    disabled={mutation.isPending}
                  />
                  {error ? (
                    <p id={`${id}-error`} role="alert" className="text-sm text-red-300">
                      {error}
                    </p>
                  ) : null}
                </div>
              );
            }}
          </form.Field>
        ))}
      </div>
      <form.Field name="comment">
        {(field) => (
          <TextAreaField
            field={field}
            // The status form beside it has a 'comment' field too: ids stay apart.
            id="review-comment"
            label="Anmerkung zur Bewertung (optional)"
            rows={2}
            maxLength={REVIEW_LIMITS.comment}
            disabled={mutation.isPending}
          />
        )}
      </form.Field>
      <div>
        <Button type="submit" disabled={mutation.isPending} className="w-full sm:w-auto">
          {mutation.isPending ? (
            <>
              <Spinner /> Speichere...
            </>
          ) : (
            'Bewertung abgeben'
          )}
        </Button>
      </div>
    </form>
  );
}

/** An admin moves an open review to another reviewer (neither owner nor biased nor assigned already). */
function Reassign({
  vehicleId,
  review,
  view,
}: {
  vehicleId: string;
  review: ReviewView;
  view: VehicleReview;
}) {
  const [to, setTo] = useState('');
  const mutation = useReassign(vehicleId);
  if (!view.candidates.length || !review.reviewerId) return null;
  const from = review.reviewerId;
  return (
    <div className="mt-2 flex flex-col gap-2 sm:flex-row sm:items-end">
      <div className="sm:w-72">
        <SelectField
          label={`Prüfung von ${review.reviewerName} neu zuweisen an`}
          options={view.candidates.map((c) => ({ value: c.id, label: `${c.name} (${c.open} offen)` }))}
          value={to}
          onValueChange={setTo}
          disabled={mutation.isPending}
        />
      </div>
      <Button
        variant="secondary"
        className="px-4 py-2"
        disabled={!to || mutation.isPending}
        onClick={() =>
          mutation.mutate(
            { from, to },
            {
              onSuccess: () => {
                notify.success('Neu zugewiesen', 'Die Prüfung wurde neu zugewiesen.');
                setTo('');
              },
              onError: (error) =>
                notify.error('Fehler', error, 'Die Prüfung konnte nicht neu zugewiesen werden.'),
            },
          )
        }
      >
        {mutation.isPending ? 'Weist zu...' : 'Zuweisen'}
      </Button>
    </div>
  );
}

function ReviewItem({
  review,
  view,
  vehicleId,
  isAdmin,
  closed,
}: {
  review: ReviewView;
  view: VehicleReview;
  vehicleId: string;
  isAdmin: boolean;
  /** The edition is over: no review is moved any more. */
  closed: boolean;
}) {
  return (
    <li className="rounded-lg border border-white/10 px-3 py-2.5 text-sm">
      <p className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="font-semibold text-parchment">
          {review.reviewerName}
          {review.mine ? ' (Sie)' : ''}
        </span>
        {review.submittedAt ? (
          <span className="text-ash-300">abgegeben am {venueDateTime(new Date(review.submittedAt))}</span>
        ) : (
          <span className="rounded-full border border-yellow-400/40 bg-yellow-500/10 px-2 py-0.5 text-xs text-yellow-100">
            offen
          </span>
        )}
        {review.total !== null ? (
          <span className="rounded-full border border-gold-500/40 px-2 py-0.5 text-xs font-semibold text-gold-200">
            {formatScore(review.total)}
          </span>
        ) : null}
      </p>
      {review.scores ? (
        <p className="mt-1 text-ash-300">
          {view.categories.map((c) => `${c.name} ${review.scores![c.id] ?? '–'}`).join(' · ')}
        </p>
      ) : review.submittedAt ? (
        <p className="mt-1 text-ash-400">{hiddenScoreText(view)}.</p>
      ) : null}
      {review.comment ? <p className="mt-1 whitespace-pre-line text-parchment">{review.comment}</p> : null}
      {isAdmin && !review.submittedAt && !closed ? (
        <Reassign vehicleId={vehicleId} review={review} view={view} />
      ) : null}
    </li>
  );
}

/**
 * 'Prüfung': the application's score (mean of the submitted reviews, with their spread), who
 * reviews it, the signed-in reviewer's form while their review is open; admins move open reviews.
 * Once the edition is over (`closed`) it only shows what was recorded.
 */
export function ReviewPanel({ vehicleId, closed = false }: { vehicleId: string; closed?: boolean }) {
  const review = useQuery(vehicleReviewQueryOptions(vehicleId));
  const { data: user } = useCurrentUser();
  if (review.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-ash-300">
        <Spinner /> Prüfung wird geladen...
      </p>
    );
  }
  if (review.isError) {
    return (
      <p role="alert" className="text-sm text-ash-300">
        Die Prüfung konnte nicht geladen werden. {errorText(review.error) ?? 'Ein Fehler ist aufgetreten.'}
      </p>
    );
  }
  const view = review.data;
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm">
        <span className="text-ash-400">Bewertung: </span>
        <span className="font-semibold text-parchment">
          {view.hidden ? hiddenScoreText(view) : scoreSummary(view.score)}
        </span>
      </p>
      {view.mine && !view.mine.submitted && !closed ? (
        <ReviewForm vehicleId={vehicleId} categories={view.categories} />
      ) : null}
      {view.reviews.length ? (
        <ul aria-label="Prüfungen" className="flex flex-col gap-2">
          {view.reviews.map((r) => (
            <ReviewItem
              key={`${r.reviewerId ?? 'deleted'}-${r.assignedAt}`}
              review={r}
              view={view}
              vehicleId={vehicleId}
              isAdmin={user?.role === 'admin'}
              closed={closed}
            />
          ))}
        </ul>
      ) : (
        <p className="text-sm text-ash-300">Niemand ist dieser Bewerbung zur Prüfung zugewiesen.</p>
      )}
    </div>
  );
}
