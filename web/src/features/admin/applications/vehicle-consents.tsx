import { CONSENT_SOURCES, CONSENTS } from '@schlosstreffen/shared';
import { useQuery } from '@tanstack/react-query';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { errorText } from '../../../components/ui/toaster';
import { formatDateTime } from '../../../lib/date-format';
import { vehicleConsentsQueryOptions } from './admin-queries';

/** The Admin tab's 'Einwilligungen': what the applicant agreed to for this vehicle, when, and withdrawals. */
export function VehicleConsents({ vehicleId }: { vehicleId: string }) {
  const consents = useQuery(vehicleConsentsQueryOptions(vehicleId));
  if (consents.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-ash-300">
        <Spinner /> Einwilligungen werden geladen...
      </p>
    );
  }
  if (consents.isError) {
    return (
      <div role="alert" className="flex flex-col items-start gap-3 text-sm text-ash-300">
        <p>
          Die Einwilligungen konnten nicht geladen werden.{' '}
          {errorText(consents.error) ?? 'Ein Fehler ist aufgetreten.'}
        </p>
        <Button
          variant="secondary"
          className="px-4 py-1.5"
          disabled={consents.isFetching}
          onClick={() => void consents.refetch()}
        >
          {consents.isFetching ? 'Lädt...' : 'Erneut versuchen'}
        </Button>
      </div>
    );
  }
  if (consents.data.length === 0) {
    return <p className="text-sm text-ash-300">Keine Einwilligungen erfasst</p>;
  }
  return (
    <ul aria-label="Einwilligungen" className="flex flex-col gap-3">
      {consents.data.map((consent) => (
        <li
          key={consent.id}
          className="rounded-lg border border-white/10 bg-night-900/60 px-3.5 py-3 text-sm"
        >
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-semibold text-parchment">{CONSENTS[consent.kind].label}</span>
            <span className="rounded-full border border-white/15 px-2 py-0.5 text-xs text-ash-300">
              Version {consent.version}
            </span>
            {consent.withdrawnAt ? (
              <span className="rounded-full border border-red-400/40 bg-red-500/10 px-2 py-0.5 text-xs font-semibold text-red-200">
                widerrufen am{' '}
                <time dateTime={consent.withdrawnAt}>{formatDateTime(consent.withdrawnAt)}</time>
              </span>
            ) : (
              <span className="rounded-full border border-emerald-400/40 bg-emerald-500/10 px-2 py-0.5 text-xs font-semibold text-emerald-200">
                Erteilt
              </span>
            )}
          </div>
          <p className="mt-1.5 text-xs text-ash-400">
            {CONSENT_SOURCES[consent.source]} · erteilt am{' '}
            <time dateTime={consent.grantedAt}>{formatDateTime(consent.grantedAt)}</time>
          </p>
          <details className="mt-1.5 text-xs text-ash-300">
            <summary className="cursor-pointer text-gold-300 hover:text-gold-200">Wortlaut</summary>
            <p className="mt-1 leading-relaxed">„{consent.wording}“</p>
          </details>
        </li>
      ))}
    </ul>
  );
}
