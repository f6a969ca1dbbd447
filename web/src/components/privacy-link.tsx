import { Link } from '@tanstack/react-router';

/**
 * 'Datenschutzerklärung' as a link from a form (registration, wizard, visitor sign-up): it opens in a
 * new tab, so what was typed so far stays where it is.
 */
export function PrivacyLink({ className }: { className: string }) {
  return (
    <Link to="/datenschutz" target="_blank" rel="noopener" className={className}>
      Datenschutzerklärung<span className="sr-only"> (öffnet in neuem Tab)</span>
    </Link>
  );
}
