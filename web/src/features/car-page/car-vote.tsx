import { AWARD_MESSAGES, AWARD_VOTER_HINT_COOKIE, AwardVoteSchema, awardTitle } from '@schlosstreffen/shared';
import type { AwardMe, AwardVoteResult, CarPage } from '@schlosstreffen/shared/api';
import {
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type UseQueryResult,
} from '@tanstack/react-query';
import { useForm, useStore } from '@tanstack/react-form';
import { useState, useSyncExternalStore } from 'react';
import * as v from 'valibot';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { InlineLoadError } from '../../components/ui/query-states';
import { errorText, RETRY_HINT } from '../../components/ui/toaster';
import { api, apiGet } from '../../lib/api';
import { useCurrentUser } from '../../lib/current-user';
import { formatDateTime } from '../../lib/date-format';
import { AccountForm, EmailField, SubmitButton } from '../account/form-parts';

/**
 * This browser's voting state for an edition's award: personal, so it is read by the client after the
 * (kept, shared) car page has loaded, only while voting is open and only by a browser that may have
 * votes of its own; never rendered on the server.
 */
export const awardMeQueryOptions = (year: number) =>
  queryOptions({
    queryKey: ['award', 'me', year] as const,
    queryFn: ({ signal }) => apiGet<AwardMe>(`/api/award/${year}/me`, { signal }),
    staleTime: 0,
  });

/** Where this tab keeps the address it gave while its votes wait (memory only, never stored). */
const addressKey = (year: number) => ['award', 'address', year] as const;

/** The address a vote without a confirmed voter needs. */
const VoteEmailSchema = v.required(v.pick(AwardVoteSchema, ['email']), AWARD_MESSAGES.email);

const VOTE_LABEL = 'Für dieses Auto stimmen';

/** What the box last said: the server's answer to a vote or a take-back, or its refusal. */
type Said = { text: string; tone: 'ok' | 'error' } | null;

/** Whether the browser holds the voter cookie's readable hint. */
const hasVoterHint = () =>
  document.cookie.split(';').some((part) => part.trim().startsWith(`${AWARD_VOTER_HINT_COOKIE}=`));
const noChanges = () => () => {};

/**
 * Whether this browser may have votes of its own: signed in, or holding the voter cookie (told by its
 * hint). Never on the server, nor while hydrating: the kept page is the same for everyone.
 */
function useMayHaveVotes(): boolean {
  const signedIn = Boolean(useCurrentUser().data);
  const hinted = useSyncExternalStore(noChanges, hasVoterHint, () => false);
  return signedIn || hinted;
}

/**
 * 'Publikumsliebling {Jahr}' on a car's page: while voting is open, a vote for this car (at most three
 * cars per confirmed address) and taking it back; without a confirmed address the vote asks for one
 * and waits for the mailed link. The voting's state comes with the page; a browser without votes of
 * its own asks for nothing more. No box after a meeting without voting.
 */
export function CarVote({ page }: { page: CarPage }) {
  const year = page.edition.year;
  const headingId = `award-vote-${year}-${page.startNumber}`;
  const mayHaveVotes = useMayHaveVotes();
  const personal = page.award?.state === 'open' && mayHaveVotes;
  const me = useQuery({ ...awardMeQueryOptions(year), enabled: personal });
  if (!page.award) return null;
  // Anyone's view of the voting, as the page has it (until a vote here brings this browser's own).
  const fromPage = personal ? undefined : { year, ...page.award, confirmed: false, votes: [] };
  return (
    <section
      aria-labelledby={headingId}
      className="mt-12 rounded-3xl border border-gold-500/30 bg-night-900/70 px-5 py-6 shadow-xl shadow-black/30 sm:px-8"
    >
      <h2 id={headingId} className="font-display text-2xl text-gold-200">
        {awardTitle(year)}
      </h2>
      <VoteState me={me} fromPage={fromPage} year={year} startNumber={page.startNumber} />
    </section>
  );
}

function VoteState({
  me,
  fromPage,
  year,
  startNumber,
}: {
  me: UseQueryResult<AwardMe>;
  /** Set while this browser's own state is not asked for. */
  fromPage: AwardMe | undefined;
  year: number;
  startNumber: number;
}) {
  const data = fromPage ? (me.data ?? fromPage) : me.data;
  if (!data && me.isError)
    return <InlineLoadError query={me} fallback="Die Abstimmung ließ sich nicht laden." className="mt-3" />;
  if (!data)
    return (
      <p role="status" className="mt-3 flex items-center gap-2 text-sm text-ash-300">
        <Spinner />
        Abstimmung wird geladen...
      </p>
    );
  if (data.state === 'not_open')
    return (
      <p className="mt-3 text-ash-300">
        {data.opensAt
          ? `Die Abstimmung beginnt am ${formatDateTime(data.opensAt)}.`
          : 'Die Abstimmung hat noch nicht begonnen.'}
      </p>
    );
  if (data.state === 'closed') return <p className="mt-3 text-ash-300">Die Abstimmung ist beendet.</p>;
  // A box of its own per car: what it said about one car is not shown on the next one's page.
  return <OpenVote key={startNumber} me={data} asked={!fromPage} year={year} startNumber={startNumber} />;
}

function OpenVote({
  me,
  asked,
  year,
  startNumber,
}: {
  me: AwardMe;
  /** Whether this browser's own state is asked for (else it is read only after a refusal). */
  asked: boolean;
  year: number;
  startNumber: number;
}) {
  const queryClient = useQueryClient();
  const [said, setSaid] = useState<Said>(null);
  const [askEmail, setAskEmail] = useState(false);
  const [mailSent, setMailSent] = useState(false);
  const meKey = awardMeQueryOptions(year).queryKey;

  const answered = (result: AwardVoteResult) => {
    setSaid({ text: result.message, tone: 'ok' });
    if (result.status === 'pending') {
      setMailSent(true);
      setAskEmail(false);
      return;
    }
    // Counted or taken back: this browser votes with a confirmed address.
    queryClient.setQueryData<AwardMe>(meKey, (old) => ({
      ...(old ?? me),
      confirmed: true,
      votes: result.votes,
    }));
  };
  const refused = (error: unknown) => {
    const text = errorText(error);
    // The cookie's address is gone (deleted or expired): ask for it again.
    if (text === AWARD_MESSAGES.emailNeeded) setAskEmail(true);
    setSaid({ text: text ?? `Das hat nicht geklappt. ${RETRY_HINT}`, tone: 'error' });
    // The voting may have closed, or the browser's address gone: read its state again.
    if (asked) void queryClient.invalidateQueries({ queryKey: meKey });
    else void queryClient.fetchQuery(awardMeQueryOptions(year)).catch(() => undefined);
  };

  const vote = useMutation({
    mutationFn: (email?: string) =>
      api.post<AwardVoteResult>(`/api/award/${year}/votes`, email ? { startNumber, email } : { startNumber }),
    onSuccess: (result, email) => {
      // Kept in this tab's memory only, so the next car's box need not ask for it again.
      if (result.status === 'pending' && email) {
        queryClient.setQueryDefaults(addressKey(year), { gcTime: Infinity });
        queryClient.setQueryData(addressKey(year), email);
      }
      answered(result);
    },
    onError: refused,
  });
  const withdraw = useMutation({
    mutationFn: () => api.delete<AwardVoteResult>(`/api/award/${year}/votes/${startNumber}`),
    onSuccess: answered,
    onError: refused,
  });
  const busy = vote.isPending || withdraw.isPending;
  const votedHere = me.confirmed && me.votes.includes(startNumber);

  let body;
  if (mailSent) {
    body = (
      <p className="mt-3 text-ash-300">
        Wir haben dir eine E-Mail mit einem Bestätigungslink geschickt. Sobald du ihn öffnest, zählt deine
        Stimme – schau auch in deinen Spam-Ordner.
      </p>
    );
  } else if (votedHere) {
    body = (
      <div className="mt-3 flex flex-col items-start gap-4 sm:flex-row sm:items-center sm:justify-between">
        <p className="flex items-center gap-2 text-lg text-parchment">
          <span aria-hidden="true" className="text-gold-300">
            ★
          </span>
          Deine Stimme für dieses Auto
        </p>
        <Button variant="secondary" disabled={busy} onClick={() => withdraw.mutate()}>
          {withdraw.isPending ? <Spinner /> : null}
          Stimme zurücknehmen
        </Button>
      </div>
    );
  } else if (askEmail || !me.confirmed) {
    body = askEmail ? (
      <EmailStep
        pending={vote.isPending}
        initial={queryClient.getQueryData<string>(addressKey(year)) ?? ''}
        onSubmit={(email) => vote.mutateAsync(email).catch(() => {})}
      />
    ) : (
      <div className="mt-3 flex flex-col items-start gap-3">
        <p className="text-ash-300">
          Gefällt dir dieses Auto? Du kannst für bis zu {me.maxVotes} Autos stimmen; deine Stimme zählt,
          sobald du deine E-Mail-Adresse bestätigt hast.
        </p>
        <Button onClick={() => setAskEmail(true)}>{VOTE_LABEL}</Button>
      </div>
    );
  } else {
    body = (
      <div className="mt-3 flex flex-col items-start gap-3">
        <p className="text-ash-300">
          Gefällt dir dieses Auto? Du kannst für bis zu {me.maxVotes} Autos stimmen.
        </p>
        <Button disabled={busy} onClick={() => vote.mutate(undefined)}>
          {vote.isPending ? <Spinner /> : null}
          {VOTE_LABEL}
        </Button>
      </div>
    );
  }

  return (
    <>
      {body}
      {me.confirmed && !mailSent ? (
        <p className="mt-4 text-sm text-ash-400 tabular-nums">
          {me.votes.length} von {me.maxVotes} Stimmen vergeben
        </p>
      ) : null}
      <p
        role="status"
        aria-live="polite"
        className={`mt-3 text-sm ${said?.tone === 'error' ? 'text-red-300' : 'text-gold-200'}`}
      >
        {said?.text ?? ''}
      </p>
    </>
  );
}

/** The address for the confirmation mail (which names no car). */
function EmailStep({
  pending,
  initial,
  onSubmit,
}: {
  pending: boolean;
  /** The address this tab gave for an earlier car, while its votes wait. */
  initial: string;
  onSubmit: (email: string) => Promise<unknown>;
}) {
  const form = useForm({
    defaultValues: { email: initial },
    validators: { onChange: VoteEmailSchema },
    onSubmit: ({ value }) => onSubmit(v.parse(VoteEmailSchema, value).email),
  });
  const submitting = useStore(form.store, (state) => state.isSubmitting);
  return (
    <div className="mt-3 max-w-md">
      <p className="mb-3 text-sm text-ash-300">
        Damit jede Stimme zählt, bestätigst du deine E-Mail-Adresse einmal über einen Link. Wir nutzen sie nur
        für diese Abstimmung.
      </p>
      <AccountForm label="Stimme abgeben" onSubmit={() => form.handleSubmit()}>
        <EmailField form={form} label="E-Mail-Adresse" />
        <SubmitButton pending={pending || submitting} label={VOTE_LABEL} pendingLabel="Wird gesendet..." />
      </AccountForm>
    </div>
  );
}
