import { Tabs } from '@ark-ui/react/tabs';
import type { AdminVehicleSort } from '@schlosstreffen/shared';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { mediaCountQueryOptions } from './admin-queries';
import { MediaLibrary } from './media-library';
import { parseDashboardSearch, type MainTab, type StatusFilter } from './dashboard-search';
import { VehiclesTab } from './vehicles-tab';
import { WaitlistPanel } from './waitlist-panel';

const route = getRouteApi('/admin/dashboard');

const mainTriggerClass =
  'relative inline-flex shrink-0 cursor-pointer items-center gap-2.5 px-1 pt-2 pb-3.5 font-display text-xl text-ash-300 transition-colors hover:text-parchment focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold-400 data-[selected]:text-gold-200';

const countClass =
  'min-w-7 rounded-full border border-gold-500/30 bg-gold-500/10 px-2 py-0.5 text-center font-sans text-xs font-semibold tabular-nums text-gold-200';

/** The search goes to the server once typing pauses this long. */
export const SEARCH_DEBOUNCE_MS = 300;

/** `value`, once it has not changed for `ms`. */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * /admin/dashboard (Admin Dashboard): the applications (Fahrzeuge) and all uploaded images (Medien,
 * with the library's total as its count, so the media library loads only when its tab is opened).
 */
export function AdminDashboardPage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();

  // Local state answers at once; the URL follows (replace, so Back leaves the page as usual).
  const [tab, setTab] = useState<MainTab>(search.tab ?? 'fahrzeuge');
  const [filter, setFilter] = useState<StatusFilter>(search.status ?? 'all');
  const [query, setQuery] = useState(search.q ?? '');
  const [sort, setSort] = useState<AdminVehicleSort>(search.sort ?? 'newest');
  const serverSearch = useDebounced(query.trim(), SEARCH_DEBOUNCE_MS);
  const mediaCount = useQuery(mediaCountQueryOptions).data;

  // The settled search goes to the URL (and so to the route loader), not every keystroke.
  useEffect(() => {
    if (serverSearch !== (search.q ?? '').trim()) syncUrl({ query: serverSearch });
  }, [serverSearch]); // only when the settled search changes

  const syncUrl = (
    changed: Partial<{ tab: MainTab; filter: StatusFilter; query: string; sort: AdminVehicleSort }>,
  ) => {
    const next = { tab, filter, query: serverSearch, sort, ...changed };
    void navigate({
      search: parseDashboardSearch({
        tab: next.tab,
        status: next.filter,
        q: next.query,
        sort: next.sort,
      }),
      replace: true,
      resetScroll: false,
    });
  };

  return (
    <section className="flex-1">
      <p className="text-xs tracking-[0.3em] text-gold-400 uppercase">Adminbereich</p>
      <h1 className="mt-2 font-display text-4xl text-parchment">Admin Dashboard</h1>
      <p className="mt-2 max-w-2xl text-sm text-ash-300">
        Bewerbungen prüfen, den Status ändern und alle hochgeladenen Bilder einsehen.
      </p>

      <Tabs.Root
        value={tab}
        onValueChange={(details) => {
          const next: MainTab = details.value === 'medien' ? 'medien' : 'fahrzeuge';
          setTab(next);
          syncUrl({ tab: next });
        }}
        lazyMount
        className="mt-8"
      >
        <Tabs.List aria-label="Admin Dashboard" className="relative flex gap-8 border-b border-white/10">
          <Tabs.Trigger value="fahrzeuge" className={mainTriggerClass}>
            Fahrzeuge
          </Tabs.Trigger>
          <Tabs.Trigger value="medien" className={mainTriggerClass}>
            Medien
            {mediaCount !== undefined ? <span className={countClass}>{mediaCount}</span> : null}
          </Tabs.Trigger>
          <Tabs.Indicator className="bottom-[-1px] h-0.5 w-(--width) rounded-full bg-gold-400 motion-reduce:[--transition-duration:0ms]" />
        </Tabs.List>
        <Tabs.Content value="fahrzeuge" className="pt-8 focus-visible:outline-offset-4">
          <WaitlistPanel />
          <h2 className="sr-only">Fahrzeuge</h2>
          <VehiclesTab
            filter={filter}
            onFilterChange={(next) => {
              setFilter(next);
              syncUrl({ filter: next });
            }}
            search={query}
            serverSearch={serverSearch}
            onSearchChange={setQuery}
            sort={sort}
            onSortChange={(next) => {
              setSort(next);
              syncUrl({ sort: next });
            }}
          />
        </Tabs.Content>
        <Tabs.Content value="medien" className="pt-8 focus-visible:outline-offset-4">
          <MediaLibrary />
        </Tabs.Content>
      </Tabs.Root>
    </section>
  );
}
