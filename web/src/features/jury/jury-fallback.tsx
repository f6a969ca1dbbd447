import { ShieldIcon } from '../../components/icons';
import { Button } from '../../components/ui/button';
import { EmptyState, LoadingBlock } from '../../components/ui/query-states';
import type { JuryDevice } from './jury-context';

export const NO_STORAGE_TEXT =
  'Dieser Browser kann Bewertungen nicht auf dem Gerät speichern. Bitte öffnen Sie die Seite in einem aktuellen Browser außerhalb des privaten Modus.';

/**
 * What a jury screen shows while the device holds no view: loading, not a judge (403), no browser
 * storage, or no connection and nothing kept.
 */
export function JuryFallback({ jury }: { jury: JuryDevice }) {
  if (!jury.supported) {
    return (
      <p role="alert" className="rounded-2xl border border-red-400/30 bg-red-950/30 p-5 text-sm text-red-100">
        {NO_STORAGE_TEXT}
      </p>
    );
  }
  if (!jury.loaded || jury.fetching || (!jury.loadError && jury.online)) {
    return <LoadingBlock label="Ihre Klassen werden geladen..." className="h-80 bg-night-900/80" />;
  }
  if (jury.loadError?.status === 403) {
    return (
      <EmptyState icon={<ShieldIcon className="size-8" />} title="Keine Jury-Aufgabe">
        {jury.loadError.message}
      </EmptyState>
    );
  }
  return (
    <div role="alert" className="rounded-2xl border border-red-400/30 bg-red-950/30 p-6 text-center">
      <h2 className="font-display text-xl text-parchment">Jury-Daten nicht verfügbar</h2>
      <p className="mt-2 text-sm text-ash-300">
        {jury.loadError?.status === 0 || !jury.loadError
          ? 'Ohne Verbindung und ohne gespeicherte Daten auf diesem Gerät. Bitte öffnen Sie die Seite einmal mit Netz.'
          : jury.loadError.message}
      </p>
      <Button className="mt-5" variant="secondary" onClick={() => void jury.reload()}>
        Erneut versuchen
      </Button>
    </div>
  );
}
