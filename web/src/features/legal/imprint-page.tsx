import { useEffect } from 'react';
import { Link } from '@tanstack/react-router';
import { getSiteConfig } from '../../lib/site-config';
import { announcePageLive } from '../../lib/page-live';
import { ContactText, LegalPage, LegalSection, legalLinkClass, OperatorAddress } from './legal-layout';

/** /impressum: who runs the site and how to reach them, from the site config. */
export function ImprintPage() {
  const { operator } = getSiteConfig();
  useEffect(announcePageLive, []);

  return (
    <LegalPage title="Impressum">
      <LegalSection id="anbieter" title="Angaben gemäß § 5 DDG">
        <OperatorAddress operator={operator} />
      </LegalSection>
      <LegalSection id="datenschutz" title="Datenschutz">
        <p>
          Ansprechpartner für den Datenschutz: <ContactText value={operator.privacyContact} />
        </p>
        <p>
          Wie wir mit deinen Daten umgehen, steht in der{' '}
          <Link to="/datenschutz" className={legalLinkClass}>
            Datenschutzerklärung
          </Link>
          .
        </p>
      </LegalSection>
    </LegalPage>
  );
}
