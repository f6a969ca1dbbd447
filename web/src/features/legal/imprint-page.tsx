import { Link } from '@tanstack/react-router';
import { siteEventFacts } from '../../lib/event-format';
import { getSiteConfig } from '../../lib/site-config';
import { useDocumentMeta } from '../../lib/use-document-meta';
import { ContactText, LegalPage, LegalSection, legalLinkClass, OperatorAddress } from './legal-layout';

/** /impressum: who runs the site and how to reach them, from the site config. */
export function ImprintPage() {
  const config = getSiteConfig();
  const { operator } = config;
  const event = siteEventFacts(config).name;
  useDocumentMeta(`Impressum – ${event}`, `Anbieter und Kontakt der Website zum ${event}.`, '/impressum');

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
