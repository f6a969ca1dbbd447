import { PRIVACY_MESSAGES } from '@schlosstreffen/shared';
import type { DataExport } from '@schlosstreffen/shared/api';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Button, buttonClass } from '../../components/ui/button';
import { ProgressBar } from '../../components/ui/progress-bar';
import { LoadError } from '../../components/ui/query-states';
import { Spinner } from '../../components/ui/spinner';
import { notify, RETRY_HINT } from '../../components/ui/toaster';
import { formatDateTime } from '../../lib/date-format';
import { getSiteConfig } from '../../lib/site-config';
import { useStartExport } from './privacy-mutations';
import { isExportRunning, myExportQueryOptions } from './privacy-queries';
import { ProfileSection } from './profile-section';

/** 'Meine Daten': a ZIP of everything stored about the account, built in the background. */
export function DataExportCard() {
  const latest = useQuery(myExportQueryOptions);
  const start = useStartExport();
  useFinishedExportToast(latest.data);
  const days = getSiteConfig().retention.accountExports;

  const startExport = () =>
    start.mutate(undefined, {
      onSuccess: () => notify.success('Datenexport gestartet', PRIVACY_MESSAGES.exportStarted),
      onError: (error) => notify.error('Datenexport konnte nicht gestartet werden', error, RETRY_HINT),
    });

  const item = latest.data;
  const running = isExportRunning(item) || start.isPending;
  const downloadUrl = item?.status === 'ready' ? item.downloadUrl : null;

  return (
    <ProfileSection
      title="Meine Daten"
      id="profile-data"
      description={
        <p>
          Lade alle Daten, die wir zu deinem Konto speichern, als ZIP-Archiv herunter. Das Erstellen dauert
          einen Moment; danach kannst du das Archiv {days === 1 ? 'einen Tag' : `${days} Tage`} lang
          herunterladen.
        </p>
      }
    >
      {latest.isPending ? (
        <p role="status" className="flex items-center gap-2 text-sm text-ash-300">
          <Spinner /> Datenexport wird geladen...
        </p>
      ) : latest.isError ? (
        <LoadError title="Datenexport konnte nicht geladen werden" query={latest} headingLevel="h3" compact />
      ) : (
        <div className="flex flex-col gap-4">
          {item && isExportRunning(item) ? <ExportProgress item={item} /> : null}

          {item && downloadUrl ? (
            <div className="flex flex-col gap-2 rounded-xl border border-emerald-400/30 bg-emerald-500/5 px-4 py-3">
              <p className="text-sm font-semibold text-parchment">Dein Datenexport ist fertig.</p>
              <a href={downloadUrl} download className={buttonClass('primary', 'self-start')}>
                ZIP herunterladen
              </a>
              {item.expiresAt ? (
                <p className="text-xs text-ash-400">
                  verfügbar bis <time dateTime={item.expiresAt}>{formatDateTime(item.expiresAt)}</time>
                </p>
              ) : null}
            </div>
          ) : item?.status === 'ready' ? (
            <p className="text-sm text-ash-300">
              Dein letzter Datenexport ist abgelaufen. Erstelle bei Bedarf einen neuen.
            </p>
          ) : null}

          {item?.status === 'failed' ? (
            <div role="alert" className="rounded-xl border border-red-400/30 bg-red-950/40 px-4 py-3 text-sm">
              <p className="font-semibold text-red-100">Der Datenexport ist fehlgeschlagen.</p>
              <p className="mt-1 break-words text-red-100/90">
                {item.error ?? 'Ein Fehler ist aufgetreten.'}
              </p>
            </div>
          ) : null}

          <Button
            variant={downloadUrl ? 'secondary' : 'primary'}
            className="self-start"
            disabled={running}
            aria-disabled={running}
            onClick={startExport}
          >
            {running ? (
              <>
                <Spinner />
                Wird erstellt...
              </>
            ) : item?.status === 'failed' ? (
              'Erneut versuchen'
            ) : downloadUrl ? (
              'Neuen Export erstellen'
            ) : (
              'Meine Daten herunterladen'
            )}
          </Button>
        </div>
      )}
    </ProfileSection>
  );
}

function ExportProgress({ item }: { item: DataExport }) {
  const queued = item.status === 'queued';
  return (
    <ProgressBar
      value={queued ? 0 : item.progress}
      max={100}
      label="Datenexport wird erstellt"
      valueText={queued ? 'Wartet auf den Start' : `${item.progress} %`}
    />
  );
}

/** A toast when the export being watched is done or has failed (not for one that was done on load). */
function useFinishedExportToast(item: DataExport | null | undefined) {
  const previous = useRef<DataExport | null | undefined>(undefined);
  useEffect(() => {
    const before = previous.current;
    previous.current = item;
    if (!item || !before || before.id !== item.id) return;
    if (!isExportRunning(before) || isExportRunning(item)) return;
    // After this commit: the toaster must not update React mid-render.
    queueMicrotask(() => {
      if (item.status === 'ready') {
        notify.success('Datenexport fertig', 'Du kannst deine Daten jetzt als ZIP herunterladen.');
      } else if (item.status === 'failed') {
        notify.error('Datenexport fehlgeschlagen', undefined, item.error ?? RETRY_HINT);
      }
    });
  }, [item]);
}
