import { Checkbox as ArkCheckbox } from '@ark-ui/react/checkbox';
import { BULK_STATUS_MAX, STATUS_LABELS, VEHICLE_STATUSES, type VehicleStatus } from '@schlosstreffen/shared';
import { Button } from '../../../components/ui/button';
import { CheckIcon } from '../../../components/ui/icons';
import { SelectField } from '../../../components/ui/select';
import { selectedCount, type BulkSelection } from './bulk-status';

const TARGET_OPTIONS = VEHICLE_STATUSES.map((status) => ({ value: status, label: STATUS_LABELS[status] }));

/** A card's checkbox in the selection mode, over the card's picture; its label names the car. */
export function SelectCardCheckbox({
  checked,
  disabled = false,
  title,
  onCheckedChange,
}: {
  checked: boolean;
  disabled?: boolean;
  title: string;
  onCheckedChange: (checked: boolean) => void;
}) {
  return (
    <ArkCheckbox.Root
      checked={checked}
      disabled={disabled}
      onCheckedChange={(details) => onCheckedChange(details.checked === true)}
      className="group absolute top-3 left-3 z-20 inline-flex cursor-pointer items-center rounded-lg data-[disabled]:cursor-default"
    >
      <ArkCheckbox.Control className="flex size-8 items-center justify-center rounded-lg border-2 border-white/70 bg-night-950/85 text-night-950 shadow-lg shadow-black/40 transition-colors group-hover:border-gold-300 data-[focus-visible]:outline-2 data-[focus-visible]:outline-offset-2 data-[focus-visible]:outline-gold-400 data-[state=checked]:border-gold-400 data-[state=checked]:bg-gold-400">
        <ArkCheckbox.Indicator>
          <CheckIcon className="size-5" />
        </ArkCheckbox.Indicator>
      </ArkCheckbox.Control>
      <ArkCheckbox.Label className="sr-only">{title} auswählen</ArkCheckbox.Label>
      <ArkCheckbox.HiddenInput />
    </ArkCheckbox.Root>
  );
}

/** 'Alle N Treffer auswählen' of the current filter and search; refused above the server's limit. */
export function SelectAllButton({
  count,
  active,
  onSelectAll,
}: {
  count: number;
  active: boolean;
  onSelectAll: () => void;
}) {
  if (active) {
    return <p className="text-sm text-gold-200">Alle {count} Treffer sind ausgewählt.</p>;
  }
  const tooMany = count > BULK_STATUS_MAX;
  return (
    <div className="flex flex-col gap-1">
      <Button
        variant="secondary"
        disabled={count === 0 || tooMany}
        onClick={onSelectAll}
        className="self-start"
      >
        Alle {count} Treffer auswählen
      </Button>
      {tooMany ? (
        <p className="text-xs text-ash-400">
          Höchstens {BULK_STATUS_MAX} auf einmal – bitte mit Status oder Suche eingrenzen.
        </p>
      ) : null}
    </div>
  );
}

/**
 * The bar at the bottom of the screen while cards are selected: 'N ausgewählt', the new status and
 * 'Status ändern…', which opens the preview.
 */
export function BulkStatusBar({
  selection,
  target,
  onTargetChange,
  onChangeStatus,
  onClear,
}: {
  selection: BulkSelection;
  target: VehicleStatus | '';
  onTargetChange: (status: VehicleStatus | '') => void;
  onChangeStatus: () => void;
  onClear: () => void;
}) {
  const count = selectedCount(selection);
  if (count === 0) return null;
  return (
    <div
      role="region"
      aria-label="Auswahl"
      className="fixed inset-x-0 bottom-0 z-40 border-t border-gold-500/30 bg-night-950 shadow-2xl shadow-black"
    >
      <div className="mx-auto flex max-w-7xl flex-col gap-2 px-4 py-3 sm:flex-row sm:items-end sm:gap-4 sm:px-6 lg:px-8">
        <div className="flex items-center justify-between gap-3 sm:mb-2.5 sm:justify-start">
          <p aria-live="polite" className="text-sm font-semibold whitespace-nowrap text-parchment">
            <span className="font-display text-xl text-gold-200 tabular-nums">{count}</span> ausgewählt
            {selection.kind === 'filter' ? (
              <span className="font-normal text-ash-400"> (alle Treffer)</span>
            ) : null}
          </p>
          <div className="sm:hidden">
            <Button variant="ghost" onClick={onClear} className="px-3 py-1.5">
              Auswahl aufheben
            </Button>
          </div>
        </div>
        <div className="flex items-end gap-2 sm:ml-auto sm:gap-3">
          <div className="min-w-0 flex-1 sm:w-56 sm:flex-none">
            <SelectField
              label="Neuer Status"
              placeholder="Status wählen"
              options={TARGET_OPTIONS}
              value={target}
              onValueChange={(value) => onTargetChange((value as VehicleStatus) || '')}
            />
          </div>
          <div className="hidden sm:block">
            <Button variant="ghost" onClick={onClear}>
              Auswahl aufheben
            </Button>
          </div>
          <Button onClick={onChangeStatus} disabled={!target} className="shrink-0 whitespace-nowrap">
            Status ändern…
          </Button>
        </div>
      </div>
    </div>
  );
}
