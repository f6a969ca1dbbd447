import { eventYear, type EditionPhase, type SiteConfig } from '@schlosstreffen/shared';
import { Link } from '@tanstack/react-router';
import { useSitePhase } from '../lib/app-clock';
import { applicationDates } from '../lib/event-format';
import { getSiteConfig } from '../lib/site-config';

export const VISITOR_LABEL = 'Als Besucher vormerken';

/** Where the site's main button leads. */
export type PrimaryAction =
  | { kind: 'apply'; label: string }
  | { kind: 'lookBack'; label: string; year: number }
  | { kind: 'visitor'; label: typeof VISITOR_LABEL };

/**
 * The site's call to action in the current edition's phase (the header, the landing page's hero
 * and the footer): 'Jetzt Bewerben' only while applications are open; before they open 'Bewerbung
 * ab {Datum}'; after the deadline (and on the meeting day) the deadline as a note and 'Als Besucher
 * vormerken' as the main button; after the meeting 'Rückblick {Jahr}'. In preparation (no opening
 * date yet) the look back on the edition before, when there is one.
 */
export interface CallToAction {
  primary: PrimaryAction;
  /** A line beside the main button: the passed deadline. */
  note: string | null;
  /** Whether 'Als Besucher vormerken' stands beside the main button (unless it is the main button). */
  visitorAside: boolean;
}

export function callToAction(config: SiteConfig, phase: EditionPhase): CallToAction {
  const year = eventYear(config.eventStart);
  const { deadlineDate, opensOn } = applicationDates(config);
  const primary = (action: PrimaryAction): CallToAction => ({
    primary: action,
    note: null,
    visitorAside: true,
  });
  switch (phase) {
    case 'open':
      return primary({ kind: 'apply', label: 'Jetzt Bewerben' });
    case 'scheduled':
      return primary({
        kind: 'apply',
        label: opensOn ? `Bewerbung ab ${opensOn}` : 'Bewerbung bald möglich',
      });
    case 'preparation':
      return config.lookBackYear
        ? primary({ kind: 'lookBack', label: `Rückblick ${config.lookBackYear}`, year: config.lookBackYear })
        : primary({ kind: 'apply', label: 'Bewerbung bald möglich' });
    case 'closed':
    case 'meetingDay':
      return {
        primary: { kind: 'visitor', label: VISITOR_LABEL },
        note: `Bewerbungsschluss war am ${deadlineDate}`,
        visitorAside: false,
      };
    case 'over':
    case 'archived':
      return primary({ kind: 'lookBack', label: `Rückblick ${year}`, year });
  }
}

/** The call to action by the app's clock, following it while the page stays open. */
export function useCallToAction(): CallToAction {
  return callToAction(getSiteConfig(), useSitePhase());
}

/** The main button's link. */
export function PrimaryActionLink({ action, className }: { action: PrimaryAction; className: string }) {
  switch (action.kind) {
    case 'apply':
      return (
        <Link to="/apply" className={className}>
          {action.label}
        </Link>
      );
    case 'lookBack':
      return (
        <Link to="/rueckblick/$year" params={{ year: String(action.year) }} className={className}>
          {action.label}
        </Link>
      );
    case 'visitor':
      return (
        <Link to="/visitor-registration" className={className}>
          {action.label}
        </Link>
      );
  }
}
