import { useEffect, useRef } from 'react';

/**
 * Announces each rendering job the admin is watching (a quartett export, a set of windshield signs)
 * once it stops running: not the ones that were done when the page loaded. The announcements run
 * after the commit, so the toaster's state machine never updates React mid-render.
 */
export function useFinishedToasts<Item extends { id: string; status: Status }, Status extends string>(
  items: Item[] | undefined,
  isRunning: (item: { status: Status }) => boolean,
  announce: (item: Item) => void,
): void {
  const previous = useRef<Map<string, Status> | null>(null);
  useEffect(() => {
    if (!items) return;
    const before = previous.current;
    previous.current = new Map(items.map((item) => [item.id, item.status]));
    if (!before) return;
    const finished = items.filter((item) => {
      const was = before.get(item.id);
      return was !== undefined && isRunning({ status: was }) && !isRunning(item);
    });
    if (finished.length) queueMicrotask(() => finished.forEach(announce));
  }, [items, isRunning, announce]);
}
