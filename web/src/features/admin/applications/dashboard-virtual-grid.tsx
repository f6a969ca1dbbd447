import { useWindowVirtualizer } from '@tanstack/react-virtual';
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';

/**
 * A long grid of the admin dashboard, rendered row by row as the page scrolls (only the rows near
 * the screen are in the DOM; the list keeps its height with padding), asking for the next page
 * when its end comes near. The items stay the list's direct children, so the grid's CSS, the
 * entrance and the list semantics are those of a plain list.
 */

/** Columns of a responsive grid: the first media query that matches, else `base`. */
export function useColumns(
  base: number,
  breakpoints: readonly (readonly [query: string, columns: number])[],
) {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (typeof window.matchMedia !== 'function') return () => undefined;
      const lists = breakpoints.map(([query]) => window.matchMedia(query));
      for (const list of lists) list.addEventListener('change', onChange);
      return () => {
        for (const list of lists) list.removeEventListener('change', onChange);
      };
    },
    [breakpoints],
  );
  const read = () => {
    if (typeof window.matchMedia !== 'function') return base;
    return breakpoints.find(([query]) => window.matchMedia(query).matches)?.[1] ?? base;
  };
  return useSyncExternalStore(subscribe, read, () => base);
}

interface VirtualGridProps<T> {
  items: readonly T[];
  columns: number;
  /** Estimated height of a row in px before it is measured, and the gap between rows. */
  rowHeight: number;
  gap: number;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  className: string;
  label: string;
  listRef?: (element: HTMLUListElement | null) => void;
  renderItem: (item: T, index: number, measure: ((element: Element | null) => void) | undefined) => ReactNode;
  /** Shown below the grid while the next page loads. */
  loadingMoreLabel: string;
}

/** Once the screen shows a row this near the end, the next page is asked for. */
const PREFETCH_ROWS = 2;

export function VirtualGrid<T>({
  items,
  columns,
  rowHeight,
  gap,
  hasMore,
  loadingMore,
  onLoadMore,
  className,
  label,
  listRef,
  renderItem,
  loadingMoreLabel,
}: VirtualGridProps<T>) {
  const ownRef = useRef<HTMLUListElement | null>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  const rowCount = Math.ceil(items.length / columns);

  // Where the list starts on the page: the rows' positions are relative to it.
  useLayoutEffect(() => {
    const measure = () => {
      const element = ownRef.current;
      if (element) setScrollMargin(element.getBoundingClientRect().top + window.scrollY);
    };
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, []);

  const virtualizer = useWindowVirtualizer({
    count: rowCount,
    estimateSize: () => rowHeight,
    gap,
    overscan: 2,
    scrollMargin,
  });
  const rows = virtualizer.getVirtualItems();
  // The rows on screen, without the overscan rendered around them.
  const lastShown = virtualizer.range?.endIndex ?? -1;

  useEffect(() => {
    if (hasMore && !loadingMore && lastShown >= rowCount - PREFETCH_ROWS) onLoadMore();
  }, [hasMore, loadingMore, lastShown, rowCount, onLoadMore]);

  const first = rows[0];
  const last = rows.at(-1);
  const total = virtualizer.getTotalSize();
  const paddingTop = first ? first.start - scrollMargin : 0;
  const paddingBottom = last ? Math.max(total - (last.end - scrollMargin), 0) : 0;

  return (
    <>
      <ul
        ref={(element) => {
          ownRef.current = element;
          listRef?.(element);
        }}
        aria-label={label}
        className={className}
        style={{ paddingTop, paddingBottom }}
      >
        {rows.flatMap((row) =>
          items.slice(row.index * columns, (row.index + 1) * columns).map((item, column) => {
            const index = row.index * columns + column;
            // The row's first item (stretched to the row's height) is the one measured.
            return renderItem(item, index, column === 0 ? virtualizer.measureElement : undefined);
          }),
        )}
      </ul>
      {loadingMore ? (
        <p role="status" className="mt-6 text-center text-sm text-ash-300">
          {loadingMoreLabel}
        </p>
      ) : null}
    </>
  );
}
