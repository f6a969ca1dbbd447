import { JURY_LIMITS, JURY_MESSAGES } from '@schlosstreffen/shared';
import type { JuryClassProgress, JuryCloseRefusal, JuryMissing } from '@schlosstreffen/shared/api';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { ChevronLeftIcon } from '../../components/icons';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { inputClass } from '../../components/ui/form-field';
import { ProgressBar } from '../../components/ui/progress-bar';
import { LoadingBlock } from '../../components/ui/query-states';
import { Spinner } from '../../components/ui/spinner';
import { api, apiGet, isApiError } from '../../lib/api';
import { useCurrentUser } from '../../lib/current-user';
import { formatDateTime } from '../../lib/date-format';
import { useJury } from './jury-context';
import { JuryRanking } from './jury-ranking';

export const juryClassQueryOptions = (classId: string) =>
  queryOptions({
    queryKey: ['jury', 'class', classId] as const,
    queryFn: ({ signal }) => apiGet<JuryClassProgress>(`/api/jury/classes/${classId}`, { signal }),
    retry: false,
  });

const RETRY_TEXT = 'Bitte versuchen Sie es erneut.';

/**
 * '/jury/klasse/{id}' (the class's head judge and admins): how many cards are complete, whose are
 * missing, and 'Klasse abschließen'. A tie on an awarded place is ordered here with a reason; an
 * admin may close despite missing scores, with a reason. Once closed: the ranking.
 */
export function JuryClassPage({ classId }: { classId: string }) {
  const progress = useQuery(juryClassQueryOptions(classId));
  return (
    <section className="flex flex-col gap-5">
      <Link
        to="/jury"
        className="inline-flex min-h-11 items-center gap-1 self-start text-sm text-gold-300 hover:text-gold-200"
      >
        <ChevronLeftIcon className="size-4" />
        Zur Übersicht
      </Link>
      {progress.isPending ? (
        <>
          <h1 className="font-display text-3xl text-parchment">Klasse</h1>
          <LoadingBlock label="Die Klasse wird geladen..." className="h-64 bg-night-900/80" />
        </>
      ) : progress.isError ? (
        <>
          <h1 className="font-display text-3xl text-parchment">Klasse</h1>
          <div role="alert" className="rounded-2xl border border-red-400/30 bg-red-950/30 p-6 text-center">
            <p className="text-sm text-ash-300">
              {isApiError(progress.error) && progress.error.fromBody
                ? progress.error.serverMessage
                : `Die Klasse konnte nicht geladen werden. ${RETRY_TEXT}`}
            </p>
            {isApiError(progress.error) && progress.error.status === 403 ? null : (
              <Button className="mt-5" variant="secondary" onClick={() => void progress.refetch()}>
                Erneut versuchen
              </Button>
            )}
          </div>
        </>
      ) : (
        <ClassProgress progress={progress.data} />
      )}
    </section>
  );
}

function ClassProgress({ progress }: { progress: JuryClassProgress }) {
  const closed = progress.state === 'closed';
  return (
    <>
      <header>
        <p className="text-xs tracking-[0.2em] text-gold-400 uppercase">Klasse</p>
        <h1 className="font-display text-3xl text-parchment sm:text-4xl">{progress.name}</h1>
        <p className="mt-1 text-sm text-ash-300">
          {closed ? 'Abgeschlossen' : 'Offen: Die Jury bewertet noch.'}
        </p>
      </header>
      <ProgressBar
        value={progress.cardsDone}
        max={Math.max(progress.cardsExpected, 1)}
        label="Vollständige Bewertungen"
        valueText={`${progress.cardsDone} von ${progress.cardsExpected}`}
      />
      {!closed && progress.missing.length > 0 ? <MissingList missing={progress.missing} /> : null}
      {closed && progress.result ? (
        <section aria-labelledby="jury-result-heading" className="flex flex-col gap-3">
          <h2 id="jury-result-heading" className="font-display text-2xl text-parchment">
            Ergebnis
          </h2>
          <p className="text-sm text-ash-300">Abgeschlossen am {formatDateTime(progress.result.closedAt)}.</p>
          {progress.result.forceReason ? (
            <p className="rounded-xl bg-amber-400/15 px-3 py-2 text-sm text-amber-100">
              Trotz fehlender Bewertungen abgeschlossen: {progress.result.forceReason}
            </p>
          ) : null}
          <JuryRanking rows={progress.result.rows} caption={`Ergebnis: ${progress.name}`} />
        </section>
      ) : null}
      {!closed ? <CloseClass progress={progress} /> : null}
    </>
  );
}

function MissingList({ missing }: { missing: JuryMissing[] }) {
  return (
    <section className="flex flex-col gap-2" data-testid="jury-missing">
      <h2 className="font-display text-xl text-parchment">Fehlende Bewertungen</h2>
      <p className="text-sm text-ash-300">{JURY_MESSAGES.missingScores(missing.length)}</p>
      <ul className="flex flex-col gap-1 text-sm text-parchment">
        {missing.map((m) => (
          <li key={`${m.judgeId}-${m.startNumber}`} className="rounded-lg bg-white/5 px-3 py-2">
            {JURY_MESSAGES.missingLine(m.judgeName, m.startNumber, m.car)}
          </li>
        ))}
      </ul>
    </section>
  );
}

type RefusedTie = NonNullable<JuryCloseRefusal['ties']>[number];

const tieKey = (tie: RefusedTie) => [...tie.startNumbers].sort((a, b) => a - b).join('-');
const reasonValid = (reason: string) => reason.trim().length >= JURY_LIMITS.reasonMin;

function CloseClass({ progress }: { progress: JuryClassProgress }) {
  const queryClient = useQueryClient();
  const jury = useJury();
  const { data: user } = useCurrentUser();
  const isAdmin = user?.role === 'admin';
  const [refusal, setRefusal] = useState<JuryCloseRefusal | null>(null);
  const [orders, setOrders] = useState<Record<string, number[]>>({});
  const [reasons, setReasons] = useState<Record<string, string>>({});
  const [force, setForce] = useState(false);
  const [forceReason, setForceReason] = useState('');
  const [tried, setTried] = useState(false);
  const ties = refusal?.ties ?? [];
  const missing = refusal?.missing ?? [];

  const close = useMutation({
    mutationFn: (body: { tieBreaks: { startNumbers: number[]; reason: string }[]; forceReason?: string }) =>
      api.post<JuryClassProgress>(`/api/jury/classes/${progress.id}/close`, body),
    onSuccess: (closed) => {
      queryClient.setQueryData(juryClassQueryOptions(progress.id).queryKey, closed);
      void jury.reload();
    },
    onError: (error) => {
      if (!isApiError(error) || error.status !== 409 || !error.body) return;
      const next = error.body as unknown as JuryCloseRefusal;
      setRefusal(next);
      // The list of missing cards above, as the server now has it.
      void queryClient.invalidateQueries({ queryKey: juryClassQueryOptions(progress.id).queryKey });
      setTried(false);
      // A tie seen before keeps the order chosen for it.
      setOrders((current) =>
        Object.fromEntries(
          (next.ties ?? []).map((tie) => [tieKey(tie), current[tieKey(tie)] ?? tie.startNumbers]),
        ),
      );
    },
  });

  const submit = () => {
    setTried(true);
    if (ties.some((tie) => !reasonValid(reasons[tieKey(tie)] ?? ''))) return;
    if (force && !reasonValid(forceReason)) return;
    close.mutate({
      tieBreaks: ties.map((tie) => ({
        startNumbers: orders[tieKey(tie)] ?? tie.startNumbers,
        reason: (reasons[tieKey(tie)] ?? '').trim(),
      })),
      ...(force ? { forceReason: forceReason.trim() } : {}),
    });
  };

  const move = (key: string, index: number, delta: number) =>
    setOrders((current) => {
      const order = [...(current[key] ?? [])];
      const [taken] = order.splice(index, 1);
      if (taken === undefined) return current;
      order.splice(index + delta, 0, taken);
      return { ...current, [key]: order };
    });

  const otherError =
    close.isError && !(isApiError(close.error) && close.error.status === 409)
      ? isApiError(close.error) && close.error.fromBody
        ? close.error.serverMessage
        : `Die Klasse konnte nicht abgeschlossen werden. ${RETRY_TEXT}`
      : null;

  return (
    <section
      aria-labelledby="jury-close-heading"
      className="flex flex-col gap-4 rounded-3xl border border-white/10 bg-night-900/70 p-4 sm:p-5"
    >
      <h2 id="jury-close-heading" className="font-display text-2xl text-parchment">
        Klasse abschließen
      </h2>
      <p className="text-sm text-ash-300">
        Der Abschluss ordnet die Autos nach dem Mittel der gewichteten Summen aller Jurymitglieder. Danach
        nimmt die Klasse keine Bewertungen mehr an.
      </p>
      {refusal ? (
        <p
          role="alert"
          className="rounded-xl border border-amber-400/40 bg-amber-400/10 px-4 py-3 text-sm text-amber-100"
        >
          {missing.length > 0
            ? 'Solange Bewertungen fehlen, lässt sich die Klasse nicht abschließen (siehe „Fehlende Bewertungen“).'
            : refusal.message}
        </p>
      ) : null}
      {missing.length > 0 ? (
        <>
          {isAdmin ? (
            <div className="flex flex-col gap-3">
              <Checkbox checked={force} onCheckedChange={setForce} label="Trotzdem abschließen" />
              {force ? (
                <ReasonField
                  label="Begründung für den Abschluss trotz fehlender Bewertungen"
                  value={forceReason}
                  onChange={setForceReason}
                  error={tried && !reasonValid(forceReason) ? JURY_MESSAGES.reason : undefined}
                />
              ) : null}
            </div>
          ) : (
            <p className="text-sm text-ash-300">{JURY_MESSAGES.forceAdminOnly}</p>
          )}
        </>
      ) : null}
      {ties.map((tie) => {
        const key = tieKey(tie);
        const order = orders[key] ?? tie.startNumbers;
        const nameOf = (n: number) => tie.cars.find((car) => car.startNumber === n)?.name ?? '';
        return (
          <fieldset
            key={key}
            data-testid="jury-tie"
            className="flex flex-col gap-3 rounded-2xl border border-white/10 p-4"
          >
            <legend className="px-1 font-semibold text-parchment">Gleichstand um Platz {tie.place}</legend>
            <p className="text-sm text-ash-300">
              Ordnen Sie die gleichauf liegenden Autos mit den Pfeilen und begründen Sie die Reihenfolge.
            </p>
            <ol aria-label={`Reihenfolge ab Platz ${tie.place}`} className="flex flex-col gap-2">
              {order.map((n, index) => (
                <li
                  key={n}
                  className="flex items-center gap-2 rounded-xl bg-white/5 px-3 py-2 text-sm text-parchment"
                >
                  <span className="w-16 shrink-0 font-bold text-gold-300 tabular-nums">
                    {tie.place + index}. Platz
                  </span>
                  <span className="min-w-0 flex-1">
                    Nr. {n} · {nameOf(n)}
                  </span>
                  <Button
                    variant="ghost"
                    className="min-h-11 min-w-11 px-2"
                    aria-label={`Nr. ${n} nach oben`}
                    disabled={index === 0}
                    onClick={() => move(key, index, -1)}
                  >
                    ↑
                  </Button>
                  <Button
                    variant="ghost"
                    className="min-h-11 min-w-11 px-2"
                    aria-label={`Nr. ${n} nach unten`}
                    disabled={index === order.length - 1}
                    onClick={() => move(key, index, 1)}
                  >
                    ↓
                  </Button>
                </li>
              ))}
            </ol>
            <ReasonField
              label={`Begründung der Reihenfolge um Platz ${tie.place}`}
              value={reasons[key] ?? ''}
              onChange={(value) => setReasons((current) => ({ ...current, [key]: value }))}
              error={tried && !reasonValid(reasons[key] ?? '') ? JURY_MESSAGES.reason : undefined}
            />
          </fieldset>
        );
      })}
      {otherError ? (
        <p role="alert" className="text-sm text-red-300">
          {otherError}
        </p>
      ) : null}
      <Button className="min-h-12 self-start" disabled={close.isPending} onClick={submit}>
        {close.isPending ? (
          <>
            <Spinner />
            Wird abgeschlossen...
          </>
        ) : (
          'Klasse abschließen'
        )}
      </Button>
    </section>
  );
}

function ReasonField({
  label,
  value,
  onChange,
  error,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-parchment">
        {label}
      </label>
      <textarea
        id={id}
        rows={3}
        value={value}
        maxLength={JURY_LIMITS.reasonMax}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => onChange(event.target.value)}
        className={`${inputClass} min-h-20 resize-y`}
      />
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}
