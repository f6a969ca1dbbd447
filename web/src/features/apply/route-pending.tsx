import { Spinner } from './vehicle-fields';

/** Shown while a signed-in page checks the session or loads its data. */
export function RoutePending() {
  return (
    <div role="status" className="flex flex-1 items-center justify-center gap-3 px-6 py-24 text-ash-300">
      <Spinner className="size-5 text-gold-400" />
      Lädt...
    </div>
  );
}
