import { useEffect } from 'react';
import {
  CONSENT_KINDS,
  CONSENTS,
  RETENTION_RULES,
  SUBMISSION_CONSENT_KINDS,
  type RetentionRule,
} from '@schlosstreffen/shared';
import { Link } from '@tanstack/react-router';
import { siteEventFacts } from '../../lib/event-format';
import { getSiteConfig } from '../../lib/site-config';
import { announcePageLive } from '../../lib/page-live';
import {
  ContactText,
  LegalBasis,
  LegalList,
  LegalPage,
  LegalSection,
  LegalSubheading,
  legalLinkClass,
  OperatorAddress,
  retentionText,
} from './legal-layout';

/**
 * /datenschutz: the privacy notice of the platform, the whole text in this one module. The operator
 * and the retention periods come from the site config, the consents with their wording and the
 * effect of withdrawing them from shared, so the notice says what the platform does.
 */
export function PrivacyPage() {
  const config = getSiteConfig();
  const { operator } = config;
  const event = siteEventFacts(config).name;
  useEffect(announcePageLive, []);
  const rules = Object.keys(RETENTION_RULES) as RetentionRule[];

  return (
    <LegalPage
      title="Datenschutzerklärung"
      lead={`Hier erklären wir, welche personenbezogenen Daten wir auf der Website zum ${event} verarbeiten, wofür und wie lange wir sie speichern und welche Rechte du hast.`}
    >
      <nav aria-label="Inhalt der Datenschutzerklärung" className="text-sm">
        <ol className="grid list-decimal gap-1.5 pl-5 text-ash-300 marker:text-gold-500 sm:grid-cols-2">
          {SECTIONS.map(([id, title]) => (
            <li key={id}>
              <Link to="/datenschutz" hash={id} className="transition-colors hover:text-gold-200">
                {title}
              </Link>
            </li>
          ))}
        </ol>
      </nav>

      <LegalSection id="verantwortlicher" title="1. Verantwortlicher">
        <p>
          Verantwortlich für die Verarbeitung personenbezogener Daten auf dieser Website im Sinne der
          Datenschutz-Grundverordnung (DSGVO) ist:
        </p>
        <OperatorAddress operator={operator} />
        <p>
          Ansprechpartner für den Datenschutz: <ContactText value={operator.privacyContact} />
        </p>
      </LegalSection>

      <LegalSection id="daten" title="2. Welche Daten wir verarbeiten und wofür">
        <LegalSubheading>Benutzerkonto</LegalSubheading>
        <p>
          Wenn du dich registrierst, speichern wir deinen Vor- und Nachnamen, deine E-Mail-Adresse, freiwillig
          deinen Instagram-Namen und dein Passwort – nur als sicheren Hash, nie im Klartext. Wir brauchen
          diese Angaben, um dein Konto zu führen, dich anzumelden, dir deine Bewerbungen zuzuordnen und dir
          E-Mails zu deinem Konto zu schicken (z. B. zum Zurücksetzen des Passworts). Änderst du deine
          E-Mail-Adresse, gilt die neue erst, wenn du den Bestätigungslink öffnest, den wir an sie schicken.
        </p>
        <LegalBasis>Art. 6 Abs. 1 lit. b DSGVO (Nutzung deines Kontos).</LegalBasis>

        <LegalSubheading>Fahrzeugbewerbungen</LegalSubheading>
        <p>
          Für eine Bewerbung speichern wir die Angaben zu deinem Fahrzeug (z. B. Marke, Modell, Baujahr,
          technische Daten, Tuning und Beschreibung) und die Fotos, die du hochlädst. Aus jedem Foto entfernen
          wir die eingebetteten Metadaten wie EXIF- und GPS-Angaben (etwa Aufnahmeort, Aufnahmezeit und
          Kameradaten); angezeigt und ausgeliefert werden nur diese bereinigten Kopien. Unser Team prüft deine
          Bewerbung und hält dabei Status, Bewertung und interne Notizen fest; jede Statusänderung wird mit
          Zeitpunkt im Verlauf deiner Bewerbung protokolliert.
        </p>
        <LegalBasis>
          Art. 6 Abs. 1 lit. b DSGVO (Bearbeitung deiner Bewerbung und deine Teilnahme am Treffen).
        </LegalBasis>

        <LegalSubheading>Einwilligungen in der Bewerbung</LegalSubheading>
        <p>
          Wenn du eine Bewerbung einreichst (im letzten Schritt des Formulars oder mit „Einreichen“ im
          Dashboard), bitten wir dich um drei Einwilligungen:
        </p>
        <LegalList>
          {SUBMISSION_CONSENT_KINDS.map((kind) => (
            <li key={kind}>
              <span className="font-semibold text-parchment">{CONSENTS[kind].label}:</span> „
              {CONSENTS[kind].text}“
            </li>
          ))}
        </LegalList>
        <p>
          Ist dein Fahrzeug bestätigt, hat es eine öffentliche Seite unter seiner Startnummer. Deinen
          Instagram-Namen zeigt sie nur, wenn du es im Dashboard erlaubst („{CONSENTS.instagram.label}“: „
          {CONSENTS.instagram.text}“); ohne diese Einwilligung erscheint er dort nicht.
        </p>
        <p>
          Wir speichern sie so, wie du sie beim Einreichen erteilt hast: wann, in welchem Wortlaut (mit dessen
          Version) und gegebenenfalls, wann du sie widerrufen hast. So können wir nachweisen, wozu du
          eingewilligt hast.
        </p>
        <LegalBasis>Art. 6 Abs. 1 lit. a DSGVO (deine Einwilligung).</LegalBasis>

        <LegalSubheading>Einladung und Check-in</LegalSubheading>
        <p>
          Laden wir dein Fahrzeug ein, vergeben wir eine Startnummer, eine Zone auf dem Gelände und einen
          Check-in-Code, mit dem unser Team deine Ankunft am Einlass erfasst. Damit der Einlass auch ohne Netz
          funktioniert, hält jedes Einlassgerät eine Liste mit Startnummer, Fahrzeugname, Marke, Modell,
          Farbe, Zone und einer nicht umkehrbaren Prüfsumme des Codes, ohne deinen Namen, deine E-Mail-Adresse
          oder Telefonnummer; sie wird beim Abmelden und am Tag nach dem Treffen gelöscht. Welches
          Einlassgerät dich wann erfasst hat, speichern wir bis{' '}
          {retentionText(
            config.retention.gateScansAfterEvent,
            RETENTION_RULES.gateScansAfterEvent.description,
          )}
          ; die Uhrzeit deiner Ankunft bleibt bei deiner Einladung.
        </p>
        <LegalBasis>Art. 6 Abs. 1 lit. b DSGVO (deine Teilnahme am Treffen).</LegalBasis>

        <LegalSubheading>Besucher-Voranmeldung</LegalSubheading>
        <p>
          Wenn du dich als Besucher vormerkst, speichern wir deinen Vor- und Nachnamen, deine E-Mail-Adresse
          und – freiwillig – deine Telefonnummer. An die E-Mail-Adresse schicken wir dir Neuigkeiten zum
          Event, sobald du deine Vormerkung über den Link in unserer E-Mail bestätigt hast. Die Telefonnummer
          nutzen wir nur für Rückfragen des Veranstalters zu deiner Voranmeldung. Über den Abmeldelink in
          unseren E-Mails kannst du dich jederzeit abmelden; deine Voranmeldung wird dann gelöscht. Kreuzt du
          an, dass wir dich auch über das nächste Schlosstreffen informieren dürfen, speichern wir deine
          Einwilligung mit Zeitpunkt und Wortlaut und bewahren deine Vormerkung über das Treffen hinaus auf,
          bis wir dir eine E-Mail zum nächsten Treffen geschickt haben (längstens so lange, wie unten
          angegeben); danach wird sie mit den Daten des vergangenen Treffens gelöscht.
        </p>
        <LegalBasis>Art. 6 Abs. 1 lit. a DSGVO (deine Einwilligung mit der Vormerkung).</LegalBasis>

        <LegalSubheading>Besucherticket</LegalSubheading>
        <p>
          Gibt es für ein Treffen Besuchertickets, bekommst du nach der Bestätigung deiner Adresse ein
          kostenloses Besucherticket oder einen Platz auf der Warteliste. Dafür speichern wir, wann du
          bestätigt hast, wann dein Ticket ausgestellt oder zurückgegeben wurde, und eine Prüfsumme des
          Ticket-Codes; der Code selbst steht nur in deiner E-Mail und im Link zu deiner Ticketseite. Die
          Einlassgeräte halten nur diese Prüfsummen, keine Namen. Am Einlass speichern wir, wann und an
          welchem Einlass dein Ticket hinein- oder hinausging. Meldest du dich von den Neuigkeiten ab,
          behältst du dein Ticket (deine Vormerkung bleibt dafür bis zum Ende der Aufbewahrung bestehen);
          löschst du deine Vormerkung, wird dein Ticket ungültig und sein Platz geht an die nächste Person auf
          der Warteliste. Dein Ticket wird mit deiner Vormerkung gelöscht; von den Scans am Einlass bleibt
          danach nur die Zahl der eingelassenen Besucher, ohne Bezug zu dir.
        </p>
        <LegalBasis>Art. 6 Abs. 1 lit. b DSGVO (dein Besuch des Treffens).</LegalBasis>

        <LegalSubheading>Publikumsliebling</LegalSubheading>
        <p>
          Stimmst du für den Publikumsliebling ab, speichern wir das Postfach deiner E-Mail-Adresse (in
          Kleinbuchstaben, ohne einen Zusatz mit „+“ und bei Gmail ohne Punkte: so stimmt jedes Postfach nur
          einmal ab), die Autos, für die du gestimmt hast, wann du abgestimmt hast, und das Netzwerk, aus dem
          die Stimme kam (deine IPv4-Adresse bzw. den Anfang deiner IPv6-Adresse), um Mehrfachabstimmungen zu
          begrenzen. Deine Stimme zählt erst, wenn du deine Adresse über den Link in unserer E-Mail bestätigt
          hast. Bis dahin merkt sich ein Cookie mit einer Zufallszahl, in welchem Browser du abgestimmt hast;
          bei der Bestätigung wählst du aus, welche Stimmen zählen, damit mit deiner Adresse nur die Stimmen
          zählen, die du selbst abgegeben hast. Nach der Bestätigung setzen wir in diesem Browser ein Cookie,
          das dich als bestätigt erkennt, und eines ohne Angaben über dich, an dem die Seite erkennt, dass sie
          deine Stimmen anzeigen soll. Über den Link in der E-Mail kannst du deine Stimmen jederzeit
          herunterladen oder löschen. Unbestätigte Adressen löschen wir nach{' '}
          {retentionText(
            config.retention.unconfirmedAwardVoters,
            RETENTION_RULES.unconfirmedAwardVoters.description,
          )}
          , alle übrigen{' '}
          {retentionText(
            config.retention.awardVotersAfterEvent,
            RETENTION_RULES.awardVotersAfterEvent.description,
          )}
          ; es bleibt nur das Endergebnis je Auto.
        </p>
        <LegalBasis>Art. 6 Abs. 1 lit. a DSGVO (deine Teilnahme an der Abstimmung).</LegalBasis>

        <LegalSubheading>Jury</LegalSubheading>
        <p>
          Bewertest du als Jurymitglied Autos, speichern wir, für welche Ausgabe und welche Klassen du
          eingetragen bist, deine Werte je Auto und Kriterium mit dem Zeitpunkt der Eingabe und einer Kennung
          deines Geräts sowie deine Erklärungen „Befangen“. Damit du auch ohne Netz bewerten kannst, hält dein
          Gerät deine Klassen, die Autos (wie auf ihren öffentlichen Seiten) und deine eigenen Werte, bis du
          dich abmeldest oder die Frist der Jury vorbei ist. Deine Einzelwerte und Befangenheiten löschen wir{' '}
          {retentionText(
            config.retention.juryScoresAfterEvent,
            RETENTION_RULES.juryScoresAfterEvent.description,
          )}
          ; die Ergebnisse der Klassen (Plätze und Durchschnittswerte je Auto) bleiben ohne die Namen der
          Jurymitglieder. Laden wir dich per E-Mail in die Jury ein, speichern wir deine Adresse mit der
          Einladung, bis du sie annimmst, längstens{' '}
          {retentionText(config.retention.juryInvites, RETENTION_RULES.juryInvites.description)}. Tritt dein
          Auto in einer Klasse an, veröffentlichen wir nach dem Treffen seinen Platz mit Name und Startnummer;
          ein Foto zeigen Ergebnisse und Urkunde nur mit deiner Einwilligung in die Veröffentlichung der
          Fahrzeugbilder.
        </p>
        <LegalBasis>
          Art. 6 Abs. 1 lit. b DSGVO (deine Mitarbeit in der Jury, die Teilnahme deines Autos am Treffen).
        </LegalBasis>

        <LegalSubheading>Startgeld</LegalSubheading>
        <p>
          Verlangen wir für eine Ausgabe ein Startgeld, bekommt deine Einladung einen Verwendungszweck. Aus
          den Kontoauszügen unseres Vereinskontos speichern wir zu jeder Gutschrift Betrag, Buchungstag, Name
          und IBAN des Zahlers und den Verwendungszweck, um sie deiner Einladung zuzuordnen und dir zu viel
          oder nach einer Absage Gezahltes zurückzuüberweisen; dafür geben wir Name, IBAN und Betrag an unsere
          Bank. Im Konto zeigen wir IBANs nur gekürzt. Buchungen bewahren wir nach dem Handels- und
          Steuerrecht zehn Jahre auf (§ 147 AO); löschst du dein Konto, bleiben sie ohne deinen Namen, deine
          IBAN und den Verwendungszweck. Gutschriften, die niemandem zugeordnet werden konnten, behalten wir
          nur mit Betrag und Datum:{' '}
          {retentionText(
            config.retention.unassignedBankLines,
            RETENTION_RULES.unassignedBankLines.description,
          )}{' '}
          entfernen wir Name, IBAN und Verwendungszweck.
        </p>
        <LegalBasis>
          Art. 6 Abs. 1 lit. b DSGVO (die Teilnahme deines Autos und ihre Abrechnung), Art. 6 Abs. 1 lit. c
          DSGVO (Aufbewahrungspflichten nach § 147 AO).
        </LegalBasis>

        <LegalSubheading>Technisch notwendige Daten</LegalSubheading>
        <LegalList>
          <li>
            <span className="font-semibold text-parchment">Sitzungs-Cookie:</span> Wenn du dich anmeldest,
            setzen wir ein Cookie, das dich bis zur Abmeldung angemeldet hält. Cookies für Werbung oder
            Reichweitenmessung setzen wir nicht, und wir binden keine Analyse-, Werbe- oder Schriftdienste
            Dritter ein.
          </li>
          <li>
            <span className="font-semibold text-parchment">E-Mail-Protokoll:</span> Wir protokollieren, welche
            E-Mail wir wann an welche Adresse geschickt haben, um Zustellprobleme nachvollziehen zu können.
          </li>
          <li>
            <span className="font-semibold text-parchment">Server-Logs:</span> Beim Aufruf der Website
            verarbeitet der Server technisch notwendige Angaben wie IP-Adresse, Zeitpunkt, aufgerufene Adresse
            und Browserkennung, um die Website auszuliefern und vor Missbrauch zu schützen (z. B. durch die
            Begrenzung von Anmeldeversuchen).
          </li>
          <li>
            <span className="font-semibold text-parchment">Protokoll der Team-Aktionen:</span> Ruft jemand aus
            unserem Team personenbezogene Daten gesammelt ab (etwa als Export) oder ändert Einstellungen,
            speichern wir, wer das wann von welcher IP-Adresse aus getan hat, nicht aber die abgerufenen Daten
            selbst. Gehörst du zum Team, betrifft das deine Anmeldungen und Aktionen.
          </li>
        </LegalList>
        <LegalBasis>
          Art. 6 Abs. 1 lit. b DSGVO für das Sitzungs-Cookie (Anmeldung in deinem Konto), Art. 6 Abs. 1 lit. f
          DSGVO für E-Mail-Protokoll, Server-Logs und das Protokoll der Team-Aktionen (unser berechtigtes
          Interesse an einem sicheren, zuverlässigen Betrieb und an nachvollziehbarem Umgang mit deinen
          Daten).
        </LegalBasis>
        <p>
          Die Links zu unseren Profilen bei Instagram und Facebook sind einfache Links: Daten an diese
          Anbieter gehen erst, wenn du einen davon öffnest; dort gelten deren Datenschutzbestimmungen.
        </p>
        <p>
          Die Angaben für Konto und Bewerbung brauchen wir, um deine Bewerbung bearbeiten zu können. Felder,
          die als „optional“ gekennzeichnet sind, kannst du leer lassen.
        </p>
      </LegalSection>

      <LegalSection id="rechtsgrundlagen" title="3. Rechtsgrundlagen im Überblick">
        <LegalList>
          <li>
            <span className="font-semibold text-parchment">Art. 6 Abs. 1 lit. a DSGVO</span> – deine
            Einwilligung: Veröffentlichung der Fahrzeugbilder, Auto-Quartett, Kontaktaufnahme zur Bewerbung,
            Event-Updates nach einer Besucher-Voranmeldung.
          </li>
          <li>
            <span className="font-semibold text-parchment">Art. 6 Abs. 1 lit. b DSGVO</span> – Vertrag und
            vorvertragliche Maßnahmen: dein Konto, deine Bewerbung, Einladung und Check-in.
          </li>
          <li>
            <span className="font-semibold text-parchment">Art. 6 Abs. 1 lit. f DSGVO</span> – berechtigte
            Interessen: sicherer und zuverlässiger Betrieb der Website, Nachvollziehbarkeit des
            E-Mail-Versands, Schutz vor Missbrauch.
          </li>
        </LegalList>
      </LegalSection>

      <LegalSection id="speicherdauer" title="4. Wie lange wir Daten speichern">
        <p>
          Dein Konto und die Daten darin speichern wir, bis du es löschst. Für die folgenden Daten gelten
          feste Fristen; danach löschen wir sie automatisch:
        </p>
        <div className="overflow-hidden rounded-xl border border-white/10 bg-night-900/60">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Speicherfristen</caption>
            <thead className="border-b border-white/10 text-xs tracking-wide text-ash-400 uppercase">
              <tr>
                <th scope="col" className="px-4 py-2.5 font-semibold">
                  Daten
                </th>
                <th scope="col" className="px-4 py-2.5 font-semibold">
                  Gelöscht nach
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-white/10">
              {rules.map((rule) => (
                <tr key={rule}>
                  <th scope="row" className="px-4 py-3 font-normal text-parchment">
                    {RETENTION_RULES[rule].label}
                  </th>
                  <td className="px-4 py-3 text-ash-300">
                    {retentionText(config.retention[rule], RETENTION_RULES[rule].description)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p>
          Löschst du dein Konto, entfernen wir es zusammen mit deinen Fahrzeugen und Bewerbungen samt Fotos,
          Einladungen, Einwilligungen, einer Besucher-Voranmeldung mit derselben E-Mail-Adresse, deinen
          Bewertungen als Jurymitglied und deinen Datenexporten. Der Statusverlauf der Bewerbungen bleibt ohne
          deinen Namen erhalten, ein Platz deines Autos in den Ergebnissen der Jury nur mit seiner
          Startnummer. Bereits gedruckte Karten des Auto-Quartetts können wir nicht zurückholen.
        </p>
      </LegalSection>

      <LegalSection id="empfaenger" title="5. Empfänger">
        <p>
          Wir verkaufen deine Daten nicht und geben sie nicht für Werbung weiter. Für den Betrieb setzen wir
          Dienstleister ein, die Daten nur in unserem Auftrag verarbeiten:
        </p>
        <LegalList>
          <li>
            <span className="font-semibold text-parchment">Hosting- und Speicheranbieter:</span> Server der
            Website und ein S3-kompatibler Objektspeicher für Fotos, Druckdateien und Datenexporte.
          </li>
          <li>
            <span className="font-semibold text-parchment">E-Mail-Versanddienstleister:</span> für den Versand
            unserer E-Mails (z. B. Bestätigungen, Einladungen, Event-Updates).
          </li>
        </LegalList>
        <p>
          Mit deiner Einwilligung zeigen wir Bilder deines Fahrzeugs auf dieser Website und in unseren
          sozialen Medien und drucken dein Fahrzeug mit seinen technischen Daten und deinem Namen im
          Auto-Quartett des Treffens.
        </p>
      </LegalSection>

      <LegalSection id="rechte" title="6. Deine Rechte">
        <p>Du hast gegenüber uns das Recht auf</p>
        <LegalList>
          <li>Auskunft über die Daten, die wir zu dir speichern (Art. 15 DSGVO),</li>
          <li>Berichtigung unrichtiger Daten (Art. 16 DSGVO),</li>
          <li>Löschung deiner Daten (Art. 17 DSGVO),</li>
          <li>Einschränkung der Verarbeitung (Art. 18 DSGVO),</li>
          <li>
            Datenübertragbarkeit, also deine Daten in einem gängigen Format zu erhalten (Art. 20 DSGVO),
          </li>
          <li>
            Widerspruch gegen Verarbeitungen, die auf unseren berechtigten Interessen beruhen, aus Gründen,
            die sich aus deiner besonderen Situation ergeben (Art. 21 DSGVO),
          </li>
          <li>
            Widerruf einer Einwilligung jederzeit mit Wirkung für die Zukunft (Art. 7 Abs. 3 DSGVO); was bis
            dahin geschehen ist, bleibt rechtmäßig.
          </li>
        </LegalList>
        <p>Was der Widerruf einer Einwilligung bewirkt:</p>
        <LegalList>
          {CONSENT_KINDS.map((kind) => (
            <li key={kind}>
              <span className="font-semibold text-parchment">{CONSENTS[kind].label}:</span>{' '}
              {CONSENTS[kind].withdrawal}
            </li>
          ))}
        </LegalList>
        <p>
          Außerdem kannst du dich bei einer Datenschutz-Aufsichtsbehörde beschweren, zum Beispiel bei der
          Sächsischen Datenschutz- und Transparenzbeauftragten oder bei der Aufsichtsbehörde deines Wohnorts.
        </p>
      </LegalSection>

      <LegalSection id="selbst" title="7. So nimmst du deine Rechte wahr">
        <p>
          Vieles erledigst du selbst in{' '}
          <Link to="/profile" className={legalLinkClass}>
            deinem Profil
          </Link>
          :
        </p>
        <LegalList>
          <li>
            <span className="font-semibold text-parchment">Meine Daten herunterladen</span> – ein ZIP-Archiv
            mit den Daten, die wir zu deinem Konto speichern.
          </li>
          <li>
            <span className="font-semibold text-parchment">Einwilligungen</span> – jede Einwilligung einzeln
            widerrufen.
          </li>
          <li>
            <span className="font-semibold text-parchment">Persönliche Informationen</span> – Name und
            E-Mail-Adresse berichtigen.
          </li>
          <li>
            <span className="font-semibold text-parchment">Konto löschen</span> – dein Konto mit allen
            zugehörigen Daten entfernen.
          </li>
        </LegalList>
        <p>
          Von Event-Updates meldest du dich über den Link in unseren E-Mails ab. Für alles andere schreib uns
          an{' '}
          <a href={`mailto:${operator.email}`} className={legalLinkClass}>
            {operator.email}
          </a>{' '}
          oder an unseren Ansprechpartner für den Datenschutz (<ContactText value={operator.privacyContact} />
          ).
        </p>
      </LegalSection>
    </LegalPage>
  );
}

const SECTIONS = [
  ['verantwortlicher', 'Verantwortlicher'],
  ['daten', 'Welche Daten wir verarbeiten und wofür'],
  ['rechtsgrundlagen', 'Rechtsgrundlagen im Überblick'],
  ['speicherdauer', 'Wie lange wir Daten speichern'],
  ['empfaenger', 'Empfänger'],
  ['rechte', 'Deine Rechte'],
  ['selbst', 'So nimmst du deine Rechte wahr'],
] as const;
