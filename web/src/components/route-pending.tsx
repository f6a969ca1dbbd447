import { Spinner } from './ui/spinner';

/**
 * Shown while a signed-in page checks the session or loads its data ('Lädt...'; the profile says
 * 'Loading...'). Kept tiny: route files import it statically, so it lands in the entry bundle.
 */
export function RoutePending({ label = 'Lädt...' }: { label?: string }) {
  return (
    <div role="status" className="flex flex-1 items-center justify-center gap-3 px-6 py-24 text-ash-300">
      <Spinner className="size-5 text-gold-400" />
      {label}
    </div>
  );
}

export function ProfilePending() {
  return <RoutePending label="Loading..." />;
}
