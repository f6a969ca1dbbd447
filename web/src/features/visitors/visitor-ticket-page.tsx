import { formatAtVenue, venueDateTime, VISITOR_TICKET_MESSAGES } from '@schlosstreffen/shared';
import type { ServerMessage, VisitorTicketView } from '@schlosstreffen/shared/api';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, type ReactNode } from 'react';
import { LinkActionCard } from '../../components/link-action-card';
import { WarningIcon } from '../../components/ui/icons';
import { LoadError, Loading } from '../../components/ui/query-states';
import { api, isApiError } from '../../lib/api';
import { VISITOR_TICKET_PAGE_CACHE } from './visitor-ticket-page-cache';
import { forgetVisitorTicket, loadVisitorTicket, saveVisitorTicket } from './visitor-ticket-store';

/** The ticket page and 'Ticket zurückgeben': reachable only with the secret link of the ticket mail. */

const ticketPath = (secret: string) => `/api/visitor-tickets/${encodeURIComponent(secret)}`;

interface LoadedTicket {
  view: VisitorTicketView;
  /** Set when the server could not be reached: when the shown copy was loaded (ISO). */
  offlineSince: string | null;
}

/**
 * Reads the ticket and keeps it on the device; without network (or with the server down) the copy
 * kept last time stands in. An unknown ticket is forgotten.
 */
export async function loadTicket(secret: string): Promise<LoadedTicket> {
  try {
    const view = await api.get<VisitorTicketView>(ticketPath(secret));
    saveVisitorTicket(secret, view);
    return { view, offlineSince: null };
  } catch (error) {
    if (isApiError(error) && error.status < 500) {
      if (error.status === 404) forgetVisitorTicket(secret);
      throw error;
    }
    const stored = loadVisitorTicket(secret);
    if (stored) return { view: stored.view, offlineSince: stored.savedAt };
    throw error;
  }
}

/** Marks the kept copy as given back, so the page shows no valid ticket offline afterwards. */
function keepReturned(secret: string) {
  const stored = loadVisitorTicket(secret);
  if (stored) saveVisitorTicket(secret, { ...stored.view, state: 'returned' }, new Date(stored.savedAt));
}

/** In the production build: the service worker, and this page in its cache, so it opens offline. */
function useKeptForOffline() {
  useEffect(() => {
    if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
    const path = window.location.pathname;
    navigator.serviceWorker
      .register('/sw.js', { scope: '/' })
      .then(() => navigator.serviceWorker.ready)
      .then(() => caches.open(VISITOR_TICKET_PAGE_CACHE))
      .then((cache) => cache.add(path))
      .catch(() => undefined);
  }, []);
}

/** /besucherticket/$secret: the visitor's ticket with its QR code, also offline once opened. */
export function VisitorTicketPage({ secret }: { secret: string }) {
  useKeptForOffline();
  const ticket = useQuery({ queryKey: ['visitor-ticket', secret], queryFn: () => loadTicket(secret) });

  if (ticket.isPending) {
    return (
      <TicketFrame>
        <Loading label="Ticket wird geladen...">
          <div aria-hidden="true" className="h-96 animate-pulse rounded-2xl bg-night-900/80" />
        </Loading>
      </TicketFrame>
    );
  }
  if (ticket.isError) {
    return (
      <TicketFrame>
        {isApiError(ticket.error) && ticket.error.status === 404 ? (
          <div
            role="alert"
            className="flex flex-col items-center gap-4 rounded-2xl border border-red-400/30 bg-red-950/30 p-6 text-center"
          >
            <WarningIcon className="size-7 text-red-200" />
            <p className="text-parchment">{VISITOR_TICKET_MESSAGES.ticketUnknown}</p>
          </div>
        ) : (
          <LoadError title="Ticket konnte nicht geladen werden" query={ticket} compact />
        )}
      </TicketFrame>
    );
  }
  return <TicketCard secret={secret} {...ticket.data} />;
}

function TicketFrame({ children }: { children: ReactNode }) {
  return (
    <section className="mx-auto flex w-full max-w-md flex-1 flex-col px-4 py-8 sm:px-6 sm:py-12">
      <h1 className="mb-6 font-display text-3xl text-parchment">Besucherticket</h1>
      {children}
    </section>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs tracking-wide text-ash-400 uppercase">{label}</dt>
      <dd className="mt-0.5 break-words text-parchment">{children}</dd>
    </div>
  );
}

function TicketCard({ secret, view, offlineSince }: LoadedTicket & { secret: string }) {
  const start = new Date(view.edition.startsAt);
  const end = new Date(view.edition.endsAt);
  const returned = view.state === 'returned';
  return (
    <TicketFrame>
      {offlineSince ? (
        <p role="status" className="mb-4 text-xs text-ash-400">
          Offline: zuletzt geladen am {venueDateTime(new Date(offlineSince))}
        </p>
      ) : null}
      <article
        aria-labelledby="visitor-ticket-edition"
        className="rounded-2xl border border-gold-500/25 bg-night-900/80 p-5 shadow-2xl shadow-black/40 sm:p-6"
      >
        <h2 id="visitor-ticket-edition" className="font-display text-2xl text-parchment">
          {view.edition.name}
        </h2>
        <dl className="mt-4 grid gap-3">
          <Fact label="Datum">
            <time dateTime={view.edition.startsAt}>{formatAtVenue(start, 'weekdayDate')}</time>
          </Fact>
          <Fact label="Uhrzeit">
            {formatAtVenue(start, 'time')} – {formatAtVenue(end, 'time')} Uhr
          </Fact>
          <Fact label="Ort">{view.edition.place}</Fact>
          <Fact label="Name">
            {view.firstName} {view.lastName}
          </Fact>
        </dl>
        {returned ? (
          <p
            role="alert"
            className="mt-6 rounded-xl border border-red-400/40 bg-red-950/40 p-4 text-center font-semibold text-red-100"
          >
            Dieses Ticket ist zurückgegeben und gilt nicht mehr.
          </p>
        ) : (
          <div className="mt-6 flex flex-col items-center gap-3 rounded-xl bg-parchment p-4 text-night-950">
            {view.qrSvg ? (
              <img
                src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(view.qrSvg)}`}
                alt="QR-Code des Besuchertickets"
                width={256}
                height={256}
                className="size-64 max-w-full"
              />
            ) : null}
            <p className="text-center text-sm">Am Einlass vorzeigen · Ticket-Code</p>
            <p className="font-mono text-sm break-all select-all">{view.code}</p>
          </div>
        )}
      </article>
      {returned ? null : (
        <p className="mt-6 text-center text-sm text-ash-300">
          Du kannst doch nicht kommen?{' '}
          <Link
            to="/besucherticket/$secret/zurueckgeben"
            params={{ secret }}
            className="font-medium text-gold-300 underline decoration-gold-500/40 underline-offset-4 hover:text-gold-200"
          >
            Ticket zurückgeben
          </Link>
        </p>
      )}
    </TicketFrame>
  );
}

/** /besucherticket/$secret/zurueckgeben: gives the ticket back, only when the button is pressed. */
export function VisitorTicketReturnPage({ secret }: { secret: string }) {
  const queryClient = useQueryClient();
  const markReturned = (value: string) => {
    keepReturned(value);
    void queryClient.invalidateQueries({ queryKey: ['visitor-ticket', value] });
  };
  const giveBack = async (value: string) => {
    try {
      const answer = await api.post<ServerMessage>(`${ticketPath(value)}/return`, {});
      markReturned(value);
      return answer;
    } catch (error) {
      if (isApiError(error) && error.status === 409) markReturned(value);
      throw error;
    }
  };
  return (
    <LinkActionCard
      title="Besucherticket zurückgeben"
      token={secret}
      intro={
        <p>
          Möchtest du dein Besucherticket zurückgeben? Dein Platz geht an die nächste Person auf der
          Warteliste.
        </p>
      }
      actionLabel="Ticket zurückgeben"
      pendingLabel="Wird zurückgegeben..."
      destructive
      action={giveBack}
      invalidText={VISITOR_TICKET_MESSAGES.ticketUnknown}
    />
  );
}
