import {
  EDITION_MESSAGES,
  isOverPhase,
  ownerCanConfirm,
  ownerCanDelete,
  ownerCanSubmit,
  ownerCanWithdraw,
  type EditionPhase,
} from '@schlosstreffen/shared';
import type { Vehicle } from '@schlosstreffen/shared/api';
import { formatDateTime } from '../../lib/date-format';

/** The edition the public site shows: new applications and carried-over cars go to it. */
export interface CurrentEdition {
  year: number;
  /** 'Schlosstreffen 2027'. */
  name: string;
  /** Its phase by the app's clock. */
  phase: EditionPhase;
  /** When its applications open, as the venue's long date ('15. Januar 2027'); null when not set. */
  opensOn: string | null;
  /** Its deadline as the venue's long date ('31. März 2027'). */
  deadlineDate: string;
}

/** What a past application came to, in its edition's words. */
export interface Outcome {
  title: string;
  detail: string | null;
  /** Took part: shown in gold. */
  tookPart: boolean;
}

/** What the owner's dashboard shows of an application and offers for it. */
export interface ApplicationView {
  edition: { year: number; name: string; phase: EditionPhase };
  /** Its edition is over (or a later one is current): a record that stays as it was. */
  frozen: boolean;
  /** Frozen: what it came to. */
  outcome: Outcome | null;
  canEdit: boolean;
  canSubmit: boolean;
  canConfirm: boolean;
  canDecline: boolean;
  canWithdraw: boolean;
  canDelete: boolean;
  /** Its car goes to the current edition as a draft ('Für {Ausgabe} bewerben' / '… übernehmen'). */
  carryOver: string | null;
  /** Why something is not offered, or what comes next. */
  note: string | null;
}

/** The application's edition; an application without one (older answers) is of the current edition. */
export function editionOf(vehicle: Vehicle, current: CurrentEdition): ApplicationView['edition'] {
  const edition = vehicle.edition ?? { year: current.year, name: current.name };
  if (edition.year === current.year) return { ...edition, phase: edition.phase ?? current.phase };
  // An earlier edition, the server's phase unknown: a later one is current, so it is archived.
  return { ...edition, phase: edition.phase ?? 'archived' };
}

/** What a past application came to: took part (checked in), did not come, or how it ended. */
export function outcomeOf(vehicle: Vehicle, editionName: string): Outcome {
  const invitation = vehicle.invitation;
  switch (vehicle.status) {
    case 'confirmed':
      if (invitation && !invitation.checkedIn) {
        return {
          title: 'Nicht erschienen',
          detail: `Teilnahme am ${editionName} war bestätigt`,
          tookPart: false,
        };
      }
      return {
        title: `Dabei beim ${editionName}`,
        detail: !invitation
          ? null
          : invitation.checkedInAt
            ? `Eingecheckt am ${formatDateTime(invitation.checkedInAt)}`
            : 'Eingecheckt',
        tookPart: true,
      };
    case 'invited':
      return { title: 'Einladung nicht bestätigt', detail: null, tookPart: false };
    case 'waitlist':
      return { title: 'Warteliste', detail: 'Kein Platz frei geworden', tookPart: false };
    case 'rejected':
      if (invitation?.releaseReason === 'declined') {
        return { title: 'Teilnahme abgesagt', detail: null, tookPart: false };
      }
      if (invitation?.releaseReason === 'lapsed') {
        return { title: 'Einladung verfallen', detail: null, tookPart: false };
      }
      return { title: 'Abgelehnt', detail: null, tookPart: false };
    case 'submitted':
    case 'in_review':
      return { title: 'Ohne Entscheidung', detail: 'Bis zum Treffen nicht entschieden', tookPart: false };
    case 'draft':
      return { title: 'Nicht eingereicht', detail: null, tookPart: false };
  }
}

/** Whether the current edition takes new drafts (the reapply route): not once its deadline passed. */
const takesDrafts = (phase: EditionPhase) =>
  phase === 'preparation' || phase === 'scheduled' || phase === 'open';

/** What comes of a frozen application's car for the current edition. */
function carryOverOf(
  vehicle: Vehicle,
  current: CurrentEdition,
  applied: boolean,
): Pick<ApplicationView, 'carryOver' | 'note'> {
  if (applied) return { carryOver: null, note: `Für ${current.name} bereits angemeldet.` };
  const draft = vehicle.status === 'draft';
  if (draft ? takesDrafts(current.phase) : current.phase === 'open') {
    return {
      carryOver: draft ? `Für ${current.name} übernehmen` : EDITION_MESSAGES.reapplyButton(current.name),
      note: null,
    };
  }
  if (current.phase === 'scheduled' && current.opensOn) {
    return { carryOver: null, note: `Die Bewerbung für ${current.name} öffnet am ${current.opensOn}.` };
  }
  if (current.phase === 'preparation' || current.phase === 'scheduled') {
    return { carryOver: null, note: `Die Bewerbung für ${current.name} öffnet bald.` };
  }
  return {
    carryOver: null,
    note: draft ? `Bewerbungsschluss für ${current.name} war am ${current.deadlineDate}.` : null,
  };
}

const NOTHING = {
  canEdit: false,
  canSubmit: false,
  canConfirm: false,
  canDecline: false,
  canWithdraw: false,
  canDelete: false,
};

/**
 * The card of one application: a record once its edition is over (its outcome, 'Ansehen', and its
 * car's way into the current edition); otherwise what the owner may do in the edition's phase:
 * submit only while applications are open, nothing pointless after the deadline (a draft there can
 * only be deleted).
 */
export function applicationView(
  vehicle: Vehicle,
  current: CurrentEdition,
  /** The cars with an application in the current edition. */
  appliedCars: ReadonlySet<string>,
): ApplicationView {
  const edition = editionOf(vehicle, current);
  const isCurrent = edition.year === current.year;
  if (isOverPhase(edition.phase)) {
    const base = { edition, frozen: true, outcome: outcomeOf(vehicle, edition.name), ...NOTHING };
    if (isCurrent) {
      // No later edition yet: a draft waits for the next one.
      return {
        ...base,
        carryOver: null,
        note:
          vehicle.status === 'draft'
            ? 'Sobald die Bewerbung für das nächste Treffen öffnet, können Sie den Entwurf übernehmen.'
            : null,
      };
    }
    return { ...base, ...carryOverOf(vehicle, current, appliedCars.has(vehicle.carId ?? vehicle.id)) };
  }

  const { status } = vehicle;
  const deadlinePassed = edition.phase === 'closed' || edition.phase === 'meetingDay';
  const draftOnly = status === 'draft';
  let note: string | null = null;
  if (draftOnly && deadlinePassed) {
    note = `Bewerbungsschluss war am ${current.deadlineDate}; dieser Entwurf kann nicht mehr eingereicht werden.`;
  } else if (draftOnly && edition.phase === 'scheduled') {
    note = current.opensOn ? `Einreichen ab ${current.opensOn}.` : 'Die Bewerbung ist noch nicht geöffnet.';
  } else if (draftOnly && edition.phase === 'preparation') {
    note = 'Die Bewerbung ist noch nicht geöffnet.';
  }
  return {
    edition,
    frozen: false,
    outcome: null,
    // A draft that can no longer be sent has nothing left to edit.
    canEdit: !(draftOnly && deadlinePassed),
    canSubmit: ownerCanSubmit(status) && edition.phase === 'open',
    canConfirm: ownerCanConfirm(status),
    canDecline: status === 'invited' || status === 'confirmed',
    canWithdraw: ownerCanWithdraw(status),
    canDelete: ownerCanDelete(status),
    carryOver: null,
    note,
  };
}

/** Why no new application can be sent to the current edition now; null while its applications are open. */
export function applyHint(current: CurrentEdition): string | null {
  switch (current.phase) {
    case 'open':
      return null;
    case 'scheduled':
      return current.opensOn
        ? `Die Bewerbung für ${current.name} öffnet am ${current.opensOn}.`
        : `Die Bewerbung für ${current.name} öffnet bald.`;
    case 'preparation':
      return `Die Bewerbung für ${current.name} öffnet bald.`;
    case 'closed':
    case 'meetingDay':
      return `Bewerbungsschluss für ${current.name} war am ${current.deadlineDate}.`;
    case 'over':
    case 'archived':
      return 'Die Bewerbung für das nächste Treffen öffnet rechtzeitig vorher.';
  }
}

/** The line under an edition's heading on the dashboard. */
export function editionLine(edition: ApplicationView['edition'], current: CurrentEdition): string {
  if (isOverPhase(edition.phase)) return 'Vorbei: Ihre Bewerbungen bleiben, wie sie waren.';
  if (edition.year !== current.year) return '';
  switch (edition.phase) {
    case 'open':
      return `Bewerbung offen bis ${current.deadlineDate}`;
    case 'meetingDay':
      return 'Heute ist das Treffen.';
    default:
      return applyHint(current) ?? '';
  }
}
