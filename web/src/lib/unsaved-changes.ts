import { useEffect } from 'react';

/** The editors holding unsaved changes now. */
const dirty = new Set<symbol>();

/**
 * Marks an editor's unsaved changes: reloading or closing the tab asks first, and `confirmDiscard`
 * asks before a switch (another edition, another mail) would drop them.
 */
export function useUnsavedChanges(isDirty: boolean): void {
  useEffect(() => {
    if (!isDirty) return;
    const mark = Symbol('unsaved');
    dirty.add(mark);
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => {
      dirty.delete(mark);
      window.removeEventListener('beforeunload', ask);
    };
  }, [isDirty]);
}

/** True when nothing unsaved would be lost, or the person agrees to drop it. */
export function confirmDiscard(): boolean {
  return dirty.size === 0 || window.confirm('Ungespeicherte Änderungen verwerfen?');
}
