import { EDITION_PHASE_LABELS } from '@schlosstreffen/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { SelectField } from '../../components/ui/select';
import { chooseEdition, chosenEdition, subscribeEdition } from '../../lib/admin-edition';
import { confirmDiscard } from '../../lib/unsaved-changes';
import { editionKeys, editionsQueryOptions } from './editions-queries';

/** The year the staff screens show (null: the current edition), re-rendering on a change. */
export function useChosenEdition(): number | null {
  return useSyncExternalStore(subscribeEdition, chosenEdition, () => null);
}

/**
 * 'Ausgabe': which edition the staff screens (lists, waitlist, Einlass board, quartett, visitors,
 * exports) show. The current one by default; an earlier one is read as it was. The gate's check-in
 * always works on the current edition.
 */
export function EditionSwitch() {
  const editions = useQuery(editionsQueryOptions);
  const chosen = useChosenEdition();
  const queryClient = useQueryClient();
  if (!editions.data) return null;
  const list = editions.data.editions;
  const current = list.find((edition) => edition.current);
  const shown = list.find((edition) => edition.year === chosen) ?? current;
  const options = list.map((edition) => ({
    value: String(edition.year),
    label: `${edition.name}${edition.current ? ' (aktuell)' : ` – ${EDITION_PHASE_LABELS[edition.phase]}`}`,
  }));
  const choose = (value: string) => {
    // Another edition's screen starts afresh: unsaved changes of this one would go.
    if (!confirmDiscard()) return;
    const year = Number(value);
    chooseEdition(!value || year === current?.year ? null : year);
    // What was read for the other edition is dropped: every screen reads its own again.
    queryClient.removeQueries({
      predicate: (query) => query.queryKey[0] !== 'auth' && query.queryKey[0] !== editionKeys.list[0],
    });
  };
  return (
    <div className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
      <div className="w-full sm:w-80">
        <SelectField
          label="Ausgabe"
          options={options}
          value={shown ? String(shown.year) : ''}
          onValueChange={choose}
          alwaysSet
        />
      </div>
      {shown && current && shown.year !== current.year ? (
        <p
          role="status"
          className="rounded-xl border border-gold-500/30 bg-gold-500/10 px-4 py-2 text-sm text-gold-100 sm:max-w-md"
        >
          Sie sehen {shown.name} ({EDITION_PHASE_LABELS[shown.phase]}). Neue Bewerbungen, der Check-in und die
          Startseite gehören zu {current.name}.
        </p>
      ) : null}
    </div>
  );
}
