import { Tabs } from '@ark-ui/react/tabs';
import { STAGGER, STATUS_LABELS } from '@schlosstreffen/shared';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState } from 'react';
import { buttonClass } from '../../components/ui/button';
import { inputClass } from '../../components/ui/form-field';
import { EmptyState, LoadError, Loading } from '../../components/ui/query-states';
import type { Vehicle } from '@schlosstreffen/shared/api';
import { entranceDelay } from '../../lib/entrance-delay';
import {
  cardEntranceClass,
  VehicleCard,
  VehicleCardSkeletons,
  vehicleGridClass,
} from '../vehicles/vehicle-card';
import { vehicleDisplayName } from '@schlosstreffen/shared';
import { NoMatchIcon, SearchIcon } from './admin-icons';
import { adminVehiclesQueryOptions } from './admin-queries';
import { VehicleDetailDialog } from './vehicle-detail-dialog';
import { isStatusFilter, STATUS_FILTERS, type StatusFilter } from './dashboard-search';

export const filterLabel = (filter: StatusFilter): string =>
  filter === 'all' ? 'Alle' : STATUS_LABELS[filter];

/** Case-insensitive substring on brand or model; an empty query matches everything. */
export function matchesSearch(vehicle: Pick<Vehicle, 'brand' | 'model'>, query: string): boolean {
  const needle = query.trim().toLocaleLowerCase('de-DE');
  if (!needle) return true;
  return [vehicle.brand, vehicle.model].some((text) => text.toLocaleLowerCase('de-DE').includes(needle));
}

export function matchesFilter(vehicle: Pick<Vehicle, 'status'>, filter: StatusFilter): boolean {
  return filter === 'all' || vehicle.status === filter;
}

/** Vehicles per filter tab (over the whole list, independent of the search). */
export function countByFilter(vehicles: readonly Pick<Vehicle, 'status'>[]): Record<StatusFilter, number> {
  const counts = Object.fromEntries(STATUS_FILTERS.map((filter) => [filter, 0])) as Record<
    StatusFilter,
    number
  >;
  for (const vehicle of vehicles) {
    counts.all += 1;
    if (vehicle.status !== 'draft') counts[vehicle.status] += 1;
  }
  return counts;
}

/** The organizers' export of what the dashboard shows: the status tab and the search. */
export function applicationsCsvUrl(filter: StatusFilter, search: string): string {
  const params = new URLSearchParams({ status: filter });
  if (search.trim()) params.set('q', search.trim());
  return `/api/admin/vehicles.csv?${params.toString()}`;
}

/** Entrance delay of the n-th card; capped so a long list does not keep its last cards hidden. */
const MAX_STAGGERED = 24;
export const staggerDelay = (index: number): string =>
  entranceDelay(index, STAGGER.adminSeconds, MAX_STAGGERED);

const filterTriggerClass =
  'inline-flex shrink-0 cursor-pointer items-center gap-2 rounded-full border border-white/10 px-3.5 py-1.5 text-sm font-medium text-ash-300 transition-colors hover:border-white/25 hover:text-parchment focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold-400 data-[selected]:border-gold-500/60 data-[selected]:bg-gold-500/15 data-[selected]:text-gold-200';

const countClass =
  'min-w-6 rounded-full bg-white/10 px-1.5 py-px text-center text-xs font-semibold tabular-nums text-parchment';

/**
 * The Fahrzeuge tab of /admin/dashboard: search on brand or model, status filter tabs with counts,
 * the cards (owner line, edit button) and the detail dialog a card opens.
 */
export function VehiclesTab({
  filter,
  onFilterChange,
  search,
  onSearchChange,
}: {
  filter: StatusFilter;
  onFilterChange: (filter: StatusFilter) => void;
  search: string;
  onSearchChange: (search: string) => void;
}) {
  const vehicles = useQuery(adminVehiclesQueryOptions);
  const [openId, setOpenId] = useState<string | null>(null);
  const searchId = useId();
  const searchRef = useRef<HTMLInputElement>(null);
  // The card whose title opened the dialog: focus returns there, or to the search box when a status
  // change has filtered that card away meanwhile.
  const listRef = useRef<HTMLUListElement>(null);
  const lastOpenedId = useRef<string | null>(null);

  // On a phone the filter row scrolls sideways: keep the chosen filter (e.g. from the URL) in view,
  // again once the counts have widened the tabs.
  const filterListRef = useRef<HTMLDivElement>(null);
  const loaded = vehicles.isSuccess;
  useEffect(() => {
    filterListRef.current
      ?.querySelector<HTMLElement>('[data-selected]')
      ?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [filter, loaded]);

  const list = vehicles.data ?? [];
  const counts = countByFilter(list);
  const searching = search.trim() !== '';
  const shown = list.filter((vehicle) => matchesFilter(vehicle, filter) && matchesSearch(vehicle, search));
  const openVehicle = openId ? list.find((vehicle) => vehicle.id === openId) : undefined;

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="flex w-full max-w-xl flex-col gap-1.5">
          <label htmlFor={searchId} className="text-sm font-medium text-ash-300">
            Fahrzeuge durchsuchen
          </label>
          <div className="relative">
            <SearchIcon className="pointer-events-none absolute top-1/2 left-3.5 size-4 -translate-y-1/2 text-ash-400" />
            <input
              ref={searchRef}
              id={searchId}
              type="search"
              value={search}
              onChange={(event) => onSearchChange(event.target.value)}
              placeholder="Suche nach Marke oder Modell..."
              autoComplete="off"
              spellCheck={false}
              className={`${inputClass} pl-10`}
            />
          </div>
        </div>
        <a
          href={applicationsCsvUrl(filter, search)}
          download
          className={buttonClass('secondary', 'shrink-0')}
          title="Bewerbungen mit Status, Bewertung, Startnummer, Parkzone und Frist, wie gefiltert"
        >
          CSV exportieren
        </a>
      </div>

      <Tabs.Root
        value={filter}
        onValueChange={(details) => {
          if (isStatusFilter(details.value)) onFilterChange(details.value);
        }}
        lazyMount
        unmountOnExit
      >
        <Tabs.List
          ref={filterListRef}
          aria-label="Nach Status filtern"
          className="-mx-4 flex gap-2 overflow-x-auto px-4 pt-1 pb-2 sm:mx-0 sm:flex-wrap sm:px-0"
        >
          {STATUS_FILTERS.map((key) => (
            <Tabs.Trigger key={key} value={key} className={filterTriggerClass}>
              {filterLabel(key)}
              {vehicles.isSuccess ? <span className={countClass}>{counts[key]}</span> : null}
            </Tabs.Trigger>
          ))}
        </Tabs.List>

        {STATUS_FILTERS.map((key) => (
          <Tabs.Content key={key} value={key} className="mt-6 focus-visible:outline-offset-4">
            {vehicles.isPending ? (
              <Loading label="Fahrzeuge werden geladen...">
                <VehicleCardSkeletons showOwner actions={1} />
              </Loading>
            ) : vehicles.isError ? (
              <LoadError title="Fahrzeuge konnten nicht geladen werden" query={vehicles} headingLevel="h3" />
            ) : shown.length === 0 ? (
              <EmptyState
                icon={<NoMatchIcon className="size-8" />}
                title="Keine Fahrzeuge gefunden"
                headingLevel="h3"
                compact
              >
                {searching
                  ? 'Versuchen Sie einen anderen Suchbegriff'
                  : 'Keine Fahrzeuge in dieser Kategorie'}
              </EmptyState>
            ) : (
              <ul ref={listRef} aria-label={`Fahrzeuge: ${filterLabel(key)}`} className={vehicleGridClass}>
                {shown.map((vehicle, index) => (
                  <li
                    key={vehicle.id}
                    data-vehicle-id={vehicle.id}
                    style={{ transitionDelay: staggerDelay(index) }}
                    className={cardEntranceClass}
                  >
                    <VehicleCard
                      vehicle={vehicle}
                      showOwner
                      headingLevel="h3"
                      onOpen={(opened) => {
                        lastOpenedId.current = opened.id;
                        setOpenId(opened.id);
                      }}
                      actions={
                        <Link
                          to="/edit/$id"
                          params={{ id: vehicle.id }}
                          aria-label={`${vehicleDisplayName(vehicle)} bearbeiten`}
                          className={buttonClass('secondary', 'grow')}
                        >
                          Bearbeiten
                        </Link>
                      }
                    />
                  </li>
                ))}
              </ul>
            )}
          </Tabs.Content>
        ))}
      </Tabs.Root>

      <VehicleDetailDialog
        vehicle={openVehicle}
        open={openVehicle !== undefined}
        onOpenChange={(open) => {
          if (!open) setOpenId(null);
        }}
        finalFocusEl={() => {
          const item = [...(listRef.current?.children ?? [])].find(
            (child) => child instanceof HTMLElement && child.dataset.vehicleId === lastOpenedId.current,
          );
          return item?.querySelector<HTMLElement>('article button') ?? searchRef.current;
        }}
      />
    </div>
  );
}
