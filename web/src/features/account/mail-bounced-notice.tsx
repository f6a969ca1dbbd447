import { mailBouncedNotice } from '@schlosstreffen/shared';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { buttonClass } from '../../components/ui/button';
import { currentUserQueryOptions } from '../../lib/current-user';

/**
 * For an account whose address a mail server refused for good: why mails do not arrive, and the way
 * to correct the address. Nothing while mails arrive. Asks the API afresh (a page's seeded user
 * does not carry the mark).
 */
export function MailBouncedNotice({ className = '' }: { className?: string }) {
  const { data: user } = useQuery({ ...currentUserQueryOptions, staleTime: 0 });
  const bounced = user?.mailBounced;
  if (!bounced) return null;
  return (
    <div
      role="alert"
      data-testid="mail-bounced-notice"
      className={`rounded-xl border border-red-400/40 bg-red-500/10 px-4 py-4 text-sm ${className}`}
    >
      <p className="font-semibold text-parchment">Unsere E-Mails erreichen Sie nicht</p>
      <p className="mt-1 break-words text-ash-300">{mailBouncedNotice(bounced.address)}</p>
      <Link to="/profile" className={buttonClass('secondary', 'mt-3')}>
        E-Mail-Adresse korrigieren
      </Link>
    </div>
  );
}
