import { Tabs } from '@ark-ui/react/tabs';
import {
  ADMIN_VEHICLE_PAGE,
  STAGGER,
  STATUS_LABELS,
  type AdminVehicleSort,
  type VehicleStatus,
} from '@schlosstreffen/shared';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Button, buttonClass } from '../../../components/ui/button';
import { inputClass } from '../../../components/ui/form-field';
import { EmptyState, LoadError, Loading } from '../../../components/ui/query-states';
import { SelectField } from '../../../components/ui/select';
import type { Vehicle } from '@schlosstreffen/shared/api';
import { entranceDelay } from '../../../lib/entrance-delay';
import {
  cardEntranceClass,
  VehicleCard,
  VehicleCardSkeletons,
  vehicleGridClass,
} from '../../vehicles/vehicle-card';
import { vehicleDisplayName } from '@schlosstreffen/shared';
import { NoMatchIcon, SearchIcon } from '../admin-icons';
import { adminVehiclesQueryOptions } from './admin-queries';
import { VehicleDetailDialog } from './vehicle-detail-dialog';
import { isAdminVehicleSort, isStatusFilter, STATUS_FILTERS, type StatusFilter } from './dashboard-search';
import { useColumns, VirtualGrid } from './dashboard-virtual-grid';
import { withEdition } from '../../../lib/admin-edition';
import { NO_SELECTION, selectedCount, toggled, type BulkSelection } from './bulk-status';
import { BulkStatusBar, SelectAllButton, SelectCardCheckbox } from './bulk-status-bar';
import { BulkStatusDialog } from './bulk-status-dialog';
import { useChosenEdition } from '../edition-switch';

export const filterLabel = (filter: StatusFilter): string =>
  filter === 'all' ? 'Alle' : STATUS_LABELS[filter];

/** The list's orders, newest first being the default. */
export const SORT_OPTIONS = [
  { value: 'newest', label: 'Neueste zuerst' },
  { value: 'oldest', label: 'Älteste zuerst' },
  { value: 'brand', label: 'Marke A–Z' },
] as const satisfies readonly { value: AdminVehicleSort; label: string }[];

/**
 * The organizers' export of what the dashboard shows: the status tab and the search (the CSV
 * endpoint has its own order and takes no sort).
 */
export function applicationsCsvUrl(filter: StatusFilter, search: string): string {
  const params = new URLSearchParams({ status: filter });
  if (search.trim()) params.set('q', search.trim());
  return withEdition(`/api/admin/vehicles.csv?${params.toString()}`);
}

/** Entrance delay of the n-th card; capped so a long list does not keep its last cards hidden. */
const MAX_STAGGERED = 24;
export const staggerDelay = (index: number): string =>
  entranceDelay(index, STAGGER.adminSeconds, MAX_STAGGERED);

const filterTriggerClass =
  'inline-flex shrink-0 cursor-pointer items-center gap-2 rounded-full border border-white/10 px-3.5 py-1.5 text-sm font-medium text-ash-300 transition-colors hover:border-white/25 hover:text-parchment focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold-400 data-[selected]:border-gold-500/60 data-[selected]:bg-gold-500/15 data-[selected]:text-gold-200';

const countClass =
  'min-w-6 rounded-full bg-white/10 px-1.5 py-px text-center text-xs font-semibold tabular-nums text-parchment';

/** vehicleGridClass's columns: 1, 2 from md, 3 from xl. */
const GRID_COLUMNS = [
  ['(min-width: 80rem)', 3],
  ['(min-width: 48rem)', 2],
] as const;

/**
 * The Fahrzeuge tab of /admin/dashboard: search on brand, model or owner (on the server, as typed,
 * `serverSearch` being the settled input), the sort order (a new order starts the list from its
 * first page), status filter tabs with the server's counts, the cards
 * (owner line, edit button) page by page as the list scrolls, and the detail dialog a card opens.
 * 'Mehrere auswählen' puts a checkbox on every card and offers 'Alle N Treffer auswählen' (the
 * filter and search); the bar at the bottom changes the status of the selection (bulk-status-*).
 */
export function VehiclesTab({
  filter,
  onFilterChange,
  search,
  serverSearch,
  onSearchChange,
  sort,
  onSortChange,
}: {
  filter: StatusFilter;
  onFilterChange: (filter: StatusFilter) => void;
  search: string;
  serverSearch: string;
  onSearchChange: (search: string) => void;
  sort: AdminVehicleSort;
  onSortChange: (sort: AdminVehicleSort) => void;
}) {
  const vehicles = useInfiniteQuery({
    ...adminVehiclesQueryOptions({ status: filter, q: serverSearch, sort }),
    placeholderData: keepPreviousData,
  });
  const columns = useColumns(1, GRID_COLUMNS);
  const [openId, setOpenId] = useState<string | null>(null);
  // The vehicle the dialog shows, kept while a status change moves it out of the current tab.
  const [opened, setOpened] = useState<Vehicle | undefined>(undefined);
  const searchId = useId();
  const searchRef = useRef<HTMLInputElement>(null);
  // The card whose title opened the dialog: focus returns there, or to the search box when a status
  // change has filtered that card away meanwhile.
  const listRef = useRef<HTMLUListElement | null>(null);
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

  const pages = vehicles.data?.pages;
  const counts = pages?.[0]?.counts;
  const searching = serverSearch.trim() !== '';
  // The previous filter's cards stay out while the chosen one loads; its counts stay in the tabs.
  const stale = vehicles.isPlaceholderData;
  const shown = stale ? [] : (pages?.flatMap((page) => page.items) ?? []);
  const current = openId ? shown.find((vehicle) => vehicle.id === openId) : undefined;
  const openVehicle = openId ? (current ?? opened) : undefined;
  useEffect(() => {
    if (current) setOpened(current);
  }, [current]);
  // Selection mode: hand-picked cards, or every hit of the filter as it was when chosen.
  const [selecting, setSelecting] = useState(false);
  const [selection, setSelection] = useState<BulkSelection>(NO_SELECTION);
  const [target, setTarget] = useState<VehicleStatus | ''>('');
  const [bulkOpen, setBulkOpen] = useState(false);
  const selected = selectedCount(selection);
  const edition = useChosenEdition();
  // Another edition's list: nothing selected stays. Another filter or search: 'all hits' no longer holds.
  useEffect(() => setSelection(NO_SELECTION), [edition]);
  useEffect(() => {
    setSelection((current) =>
      current.kind === 'filter' && (current.status !== filter || current.q !== serverSearch)
        ? NO_SELECTION
        : current,
    );
  }, [filter, serverSearch]);
  const endSelection = () => {
    setSelection(NO_SELECTION);
    setSelecting(false);
    setTarget('');
  };

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = vehicles;
  const loadMore = useCallback(() => {
    // A call while a page is on its way is no second request.
    void fetchNextPage({ cancelRefetch: false });
  }, [fetchNextPage]);

  return (
    <div className={`flex flex-col gap-6 ${selected > 0 ? 'pb-40 sm:pb-28' : ''}`}>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="flex w-full max-w-3xl flex-col gap-3 sm:flex-row sm:items-end">
          <div className="flex w-full min-w-0 flex-col gap-1.5 sm:max-w-xl">
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
          <div className="shrink-0 sm:w-52">
            <SelectField
              label="Sortieren nach"
              alwaysSet
              options={SORT_OPTIONS}
              value={sort}
              onValueChange={(value) => {
                if (isAdminVehicleSort(value)) onSortChange(value);
              }}
            />
          </div>
        </div>
        <div className="flex shrink-0 flex-wrap gap-2">
          <Button
            variant={selecting ? 'primary' : 'secondary'}
            aria-pressed={selecting}
            onClick={() => (selecting ? endSelection() : setSelecting(true))}
          >
            {selecting ? 'Auswahl beenden' : 'Mehrere auswählen'}
          </Button>
          <a
            href={applicationsCsvUrl(filter, search)}
            download
            className={buttonClass('secondary', 'shrink-0')}
            title="Bewerbungen mit Status, Bewertung, Startnummer, Parkzone und Frist, wie gefiltert"
          >
            CSV exportieren
          </a>
        </div>
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
              {counts ? <span className={countClass}>{counts[key]}</span> : null}
            </Tabs.Trigger>
          ))}
        </Tabs.List>

        {selecting && counts && !stale ? (
          <div className="mt-4 flex flex-col gap-3 rounded-xl border border-gold-500/20 bg-gold-500/5 px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
            <p className="text-sm text-ash-300">
              Wählen Sie Karten über ihr Kästchen aus – oder alle Treffer von „{filterLabel(filter)}“
              {searching ? ` mit „${serverSearch}“` : ''}.
            </p>
            <SelectAllButton
              count={counts[filter]}
              active={selection.kind === 'filter'}
              onSelectAll={() =>
                setSelection({ kind: 'filter', status: filter, q: serverSearch, count: counts[filter] })
              }
            />
          </div>
        ) : null}

        {STATUS_FILTERS.map((key) => (
          <Tabs.Content key={key} value={key} className="mt-6 focus-visible:outline-offset-4">
            {vehicles.isPending || stale ? (
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
              <VirtualGrid
                items={shown}
                columns={columns}
                rowHeight={640}
                gap={24}
                hasMore={hasNextPage}
                loadingMore={isFetchingNextPage}
                onLoadMore={loadMore}
                loadingMoreLabel="Weitere Fahrzeuge werden geladen..."
                label={`Fahrzeuge: ${filterLabel(key)}`}
                className={vehicleGridClass}
                listRef={(element) => {
                  listRef.current = element;
                }}
                renderItem={(vehicle, index, measure) => (
                  <li
                    key={vehicle.id}
                    ref={measure}
                    data-index={Math.floor(index / columns)}
                    data-vehicle-id={vehicle.id}
                    // Staggered on the first page; cards that come later (scrolling) enter at once.
                    style={{
                      transitionDelay: index < ADMIN_VEHICLE_PAGE.size ? staggerDelay(index) : undefined,
                    }}
                    className={`relative rounded-2xl ${cardEntranceClass} ${
                      selecting && (selection.kind === 'filter' || selection.ids.has(vehicle.id))
                        ? 'ring-2 ring-gold-400 ring-offset-2 ring-offset-night-950'
                        : ''
                    }`}
                  >
                    {selecting ? (
                      <SelectCardCheckbox
                        title={vehicleDisplayName(vehicle)}
                        checked={selection.kind === 'filter' || selection.ids.has(vehicle.id)}
                        disabled={selection.kind === 'filter'}
                        onCheckedChange={() =>
                          setSelection((current) => toggled(current, vehicle.id, vehicleDisplayName(vehicle)))
                        }
                      />
                    ) : null}
                    <VehicleCard
                      vehicle={vehicle}
                      showOwner
                      headingLevel="h3"
                      onOpen={(chosen) => {
                        lastOpenedId.current = chosen.id;
                        setOpened(chosen);
                        setOpenId(chosen.id);
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
                )}
              />
            )}
          </Tabs.Content>
        ))}
      </Tabs.Root>

      <BulkStatusBar
        selection={selection}
        target={target}
        onTargetChange={setTarget}
        onChangeStatus={() => setBulkOpen(true)}
        onClear={() => setSelection(NO_SELECTION)}
      />
      {target ? (
        <BulkStatusDialog
          open={bulkOpen}
          onOpenChange={setBulkOpen}
          selection={selection}
          target={target}
          onFinished={endSelection}
        />
      ) : null}

      <VehicleDetailDialog
        vehicle={openVehicle}
        open={openVehicle !== undefined}
        onOpenChange={(open) => {
          if (!open) {
            setOpenId(null);
            setOpened(undefined);
          }
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
