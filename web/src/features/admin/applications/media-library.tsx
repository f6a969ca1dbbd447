import { ADMIN_MEDIA_PAGE, SKELETON, STAGGER } from '@schlosstreffen/shared';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useCallback, useId, useState } from 'react';
import { CarPlaceholderIcon } from '../../../components/icons';
import { buttonClass } from '../../../components/ui/button';
import { EmptyState, LoadError, Loading } from '../../../components/ui/query-states';
import { formatIso } from '../../../lib/date-format';
import { entranceDelay } from '../../../lib/entrance-delay';
import type { MediaLibraryItem } from '@schlosstreffen/shared/api';
import { personLabel, vehicleDisplayName } from '@schlosstreffen/shared';
import { DownloadIcon, ExternalLinkIcon, ImagesIcon } from '../admin-icons';
import { withEdition } from '../../../lib/admin-edition';
import { MEDIA_ARCHIVE_URL, mediaDownloadUrl, mediaFileName } from './media-download';
import { mediaLibraryQueryOptions } from './admin-queries';
import { useColumns, VirtualGrid } from './dashboard-virtual-grid';

/** gridClass's columns: 2, 3 from md, 4 from lg. */
const GRID_COLUMNS = [
  ['(min-width: 64rem)', 4],
  ['(min-width: 48rem)', 3],
] as const;

/** Later tiles join the entrance after this many steps, so a long library does not trickle in. */
const MAX_STAGGER_STEPS = 16;

const countText = (count: number) =>
  `Insgesamt ${count.toLocaleString('de-DE')} ${count === 1 ? 'Bild' : 'Bilder'}`;

/**
 * The Medien tab of the admin dashboard: all uploaded images, newest first, page by page as the
 * grid scrolls, with vehicle, owner, year and upload date, per image open and download, and one ZIP
 * of all of them. Loads only while mounted, i.e. once the tab is opened.
 */
export function MediaLibrary() {
  const media = useInfiniteQuery(mediaLibraryQueryOptions);
  const items = media.data?.pages.flatMap((page) => page.items);
  const total = media.data?.pages[0]?.total ?? 0;
  const columns = useColumns(2, GRID_COLUMNS);
  const { fetchNextPage } = media;
  const loadMore = useCallback(() => {
    // A call while a page is on its way is no second request.
    void fetchNextPage({ cancelRefetch: false });
  }, [fetchNextPage]);

  return (
    <div>
      <h2 className="sr-only">Medien</h2>
      {media.isPending ? (
        <Loading label="Medien werden geladen...">
          <div aria-hidden="true" className="mb-6 flex items-center justify-between gap-4">
            <div className="h-5 w-40 animate-pulse rounded bg-night-800 motion-reduce:animate-none" />
            <div className="h-10 w-48 animate-pulse rounded-full bg-night-800 motion-reduce:animate-none" />
          </div>
          <ul aria-hidden="true" className={gridClass}>
            {Array.from({ length: SKELETON.mediaGrid }, (_, index) => (
              <MediaTileSkeleton key={index} />
            ))}
          </ul>
        </Loading>
      ) : media.isError ? (
        <LoadError title="Medien konnten nicht geladen werden" query={media} headingLevel="h3" />
      ) : !items || items.length === 0 ? (
        <EmptyState icon={<ImagesIcon className="size-10" />} title="Keine Medien gefunden" headingLevel="h3">
          Noch keine Bilder hochgeladen
        </EmptyState>
      ) : (
        <>
          <div className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
            <p className="text-sm text-ash-300 tabular-nums">{countText(total)}</p>
            {/* A plain download: the server streams the ZIP as an attachment, nothing is held in the page. */}
            <a
              href={withEdition(MEDIA_ARCHIVE_URL)}
              download
              className={buttonClass('primary', 'self-start sm:self-auto')}
            >
              <DownloadIcon className="size-4" />
              Alle herunterladen
            </a>
          </div>
          <VirtualGrid
            items={items}
            columns={columns}
            rowHeight={300}
            gap={20}
            hasMore={media.hasNextPage}
            loadingMore={media.isFetchingNextPage}
            onLoadMore={loadMore}
            loadingMoreLabel="Weitere Bilder werden geladen..."
            label="Alle Bilder"
            className={gridClass}
            renderItem={(item, index, measure) => (
              <MediaTile
                key={item.id}
                item={item}
                index={index}
                row={Math.floor(index / columns)}
                measure={measure}
              />
            )}
          />
        </>
      )}
    </div>
  );
}

const gridClass = 'grid grid-cols-2 gap-3 sm:gap-5 md:grid-cols-3 lg:grid-cols-4';

// Visible on hover and keyboard focus; always on screens without hover (phones, tablets).
const actionsClass =
  'absolute inset-x-0 bottom-0 flex justify-end gap-2 bg-linear-to-t from-night-950/90 via-night-950/50 to-transparent p-2.5 pt-8 opacity-0 transition-opacity duration-200 group-hover:opacity-100 group-focus-within:opacity-100 motion-reduce:transition-none [@media(hover:none)]:opacity-100';

const actionClass =
  'flex size-10 items-center justify-center rounded-full border border-gold-500/40 bg-night-950/85 text-gold-100 shadow-lg shadow-black/40 backdrop-blur-sm transition-colors hover:border-gold-300 hover:bg-gold-500 hover:text-night-950 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold-300';

function MediaTile({
  item,
  index,
  row,
  measure,
}: {
  item: MediaLibraryItem;
  index: number;
  /** The grid row, and the virtualizer's measurement for a row's first tile. */
  row: number;
  measure: ((element: Element | null) => void) | undefined;
}) {
  const captionId = useId();
  const title = vehicleDisplayName(item.vehicle);
  const sources = [...new Set([item.thumbnailUrl, item.url].filter((src): src is string => !!src))];
  const [failed, setFailed] = useState<readonly string[]>([]);
  const src = sources.find((candidate) => !failed.includes(candidate));
  // The upload date with two digits each (22.11.26).
  const date = formatIso(item.createdAt, 'shortDate');

  return (
    <li
      ref={measure}
      data-index={row}
      style={{
        // Staggered on the first page; tiles that come later (scrolling) enter at once.
        transitionDelay:
          index < ADMIN_MEDIA_PAGE.size
            ? entranceDelay(index, STAGGER.adminSeconds, MAX_STAGGER_STEPS)
            : undefined,
      }}
      className="transition-[opacity,translate] duration-500 ease-out starting:translate-y-3 starting:opacity-0 motion-reduce:transition-none"
    >
      <figure
        aria-labelledby={captionId}
        className="group flex h-full flex-col overflow-hidden rounded-2xl border border-white/10 bg-night-900/90 shadow-xl shadow-black/30 transition-colors focus-within:border-gold-500/50 hover:border-gold-500/40"
      >
        <div className="relative aspect-[16/10] overflow-hidden bg-linear-to-br from-night-800 to-night-950">
          {/* Behind the picture while it loads (lazily) and in its place when it fails. */}
          <CarPlaceholderIcon className="absolute top-1/2 left-1/2 size-12 -translate-1/2 text-gold-500/40" />
          {src ? (
            <img
              key={src}
              src={src}
              alt={item.altText?.trim() || title}
              loading="lazy"
              decoding="async"
              onError={() => setFailed((previous) => [...previous, src])}
              className="relative size-full object-cover transition-[scale] duration-500 group-hover:scale-[1.03] motion-reduce:transition-none"
            />
          ) : null}
          {item.isHero ? (
            <span className="absolute top-2.5 left-2.5 rounded-full border border-gold-300/60 bg-gold-500 px-2.5 py-0.5 text-xs font-semibold text-night-950 shadow-md shadow-black/40">
              Hauptbild
            </span>
          ) : null}
          <div className={actionsClass}>
            <a
              href={item.url}
              target="_blank"
              rel="noopener"
              title="In neuem Tab öffnen"
              aria-describedby={captionId}
              className={actionClass}
            >
              <ExternalLinkIcon className="size-4.5" />
              <span className="sr-only">In neuem Tab öffnen</span>
            </a>
            <a
              href={mediaDownloadUrl(item)}
              download={mediaFileName(item)}
              title="Herunterladen"
              aria-describedby={captionId}
              className={actionClass}
            >
              <DownloadIcon className="size-4.5" />
              <span className="sr-only">Herunterladen</span>
            </a>
          </div>
        </div>
        <figcaption id={captionId} className="flex flex-1 flex-col gap-0.5 p-3 sm:p-4">
          <span className="line-clamp-2 font-display text-base leading-snug text-parchment sm:text-lg">
            {title}
          </span>
          <span className="truncate text-xs text-ash-300 sm:text-sm">{personLabel(item.user)}</span>
          <span className="mt-auto flex flex-wrap items-center justify-between gap-x-3 gap-y-0.5 pt-1.5 text-xs text-ash-400 tabular-nums">
            <span>Baujahr {item.vehicle.year}</span>
            <time dateTime={item.createdAt} title={`Hochgeladen am ${date}`}>
              <span className="sr-only">Hochgeladen am </span>
              {date}
            </time>
          </span>
        </figcaption>
      </figure>
    </li>
  );
}

function MediaTileSkeleton() {
  return (
    <li
      data-testid="media-skeleton"
      className="flex flex-col overflow-hidden rounded-2xl border border-white/10 bg-night-900/90"
    >
      <div className="aspect-[16/10] animate-pulse bg-night-800 motion-reduce:animate-none" />
      <div className="flex flex-col gap-2 p-3 sm:p-4">
        <div className="h-5 w-3/4 animate-pulse rounded bg-night-700 motion-reduce:animate-none" />
        <div className="h-3.5 w-1/2 animate-pulse rounded bg-night-800 motion-reduce:animate-none" />
        <div className="h-3 w-full animate-pulse rounded bg-night-800 motion-reduce:animate-none" />
      </div>
    </li>
  );
}
