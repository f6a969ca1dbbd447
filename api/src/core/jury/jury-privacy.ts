/**
 * The jury and a person's data: what an account's export holds of it (the editions and classes they
 * judged, their own values and bias declarations, invitations to their confirmed address), and the
 * invitations that go when the account goes (the rest goes with the account by foreign keys).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { mailboxOf, vehicleDisplayName } from '@schlosstreffen/shared';
import { Edition } from '../model/edition.entity.js';
import { Invitation } from '../model/invitation.entity.js';
import type { JuryClass } from '../model/jury.entity.js';
import { JuryClassJudge, JuryInvite, JuryJudge, JuryRecusal, JuryScore } from '../model/jury.entity.js';
import type { User } from '../model/user.entity.js';
import { Vehicle } from '../model/vehicle.entity.js';

/** A car as the export names it: its start number and name (cars of others, as the public saw them). */
interface CarRef {
  startNumber: number | null;
  car: string | null;
}

/** One edition the person judged (or scored in), as `jury.json` lists it. */
export interface JuryEditionExport {
  edition: string;
  year: number;
  /** Since when they are a judge of the edition; null when no longer one. */
  judgeSince: Date | null;
  classes: { name: string; headJudge: boolean }[];
  scores: (CarRef & { class: string; criterion: string; value: number; enteredAt: Date })[];
  biasDeclarations: (CarRef & { declaredAt: Date })[];
}

export interface JuryExport {
  judged: JuryEditionExport[];
  /** Invitations to judge sent to the account's confirmed address (not yet accepted). */
  invitations: { edition: string; email: string; invitedAt: Date }[];
}

/** Invitations whose address is this mailbox (tagged spellings included). */
async function invitesTo(em: EntityManager, email: string): Promise<JuryInvite[]> {
  const mailbox = mailboxOf(email);
  const invites = await em.find(JuryInvite, {}, { populate: ['edition'], orderBy: { createdAt: 'asc' } });
  return invites.filter((invite) => mailboxOf(invite.email) === mailbox);
}

/** `jury.json` of the account's data export. */
export async function juryDataOf(em: EntityManager, user: User): Promise<JuryExport> {
  const judges = await em.find(JuryJudge, { user: user.id });
  const classJudges = await em.find(JuryClassJudge, { user: user.id }, { populate: ['juryClass'] });
  const scores = await em.find(
    JuryScore,
    { judge: user.id },
    { populate: ['juryClass'], orderBy: { enteredAt: 'asc' } },
  );
  const recusals = await em.find(JuryRecusal, { judge: user.id }, { orderBy: { enteredAt: 'asc' } });

  const vehicleIds = [...new Set([...scores, ...recusals].map((row) => row.vehicle.id))];
  const vehicles = new Map(
    (vehicleIds.length
      ? await em.find(Vehicle, { id: { $in: vehicleIds } }, { fields: ['brand', 'model', 'name'] })
      : []
    ).map((vehicle) => [vehicle.id, vehicleDisplayName(vehicle)]),
  );
  const startNumbers = new Map(
    (vehicleIds.length ? await em.find(Invitation, { vehicle: { $in: vehicleIds } }) : []).map((row) => [
      row.vehicle.id,
      row.startNumber,
    ]),
  );
  const carOf = (vehicleId: string): CarRef => ({
    startNumber: startNumbers.get(vehicleId) ?? null,
    car: vehicles.get(vehicleId) ?? null,
  });

  const editionIds = new Set<string>([
    ...judges.map((row) => row.edition.id),
    ...classJudges.map((row) => (row.juryClass as unknown as JuryClass).edition.id),
    ...scores.map((row) => (row.juryClass as unknown as JuryClass).edition.id),
    ...recusals.map((row) => row.edition.id),
  ]);
  const editions = editionIds.size
    ? await em.find(Edition, { id: { $in: [...editionIds] } }, { orderBy: { year: 'asc' } })
    : [];
  const judged = editions.map((edition): JuryEditionExport => {
    const inEdition = (juryClass: JuryClass) => juryClass.edition.id === edition.id;
    return {
      edition: edition.name,
      year: edition.year,
      judgeSince: judges.find((row) => row.edition.id === edition.id)?.createdAt ?? null,
      classes: classJudges
        .map((row) => row.juryClass as unknown as JuryClass)
        .filter(inEdition)
        .sort((a, b) => a.position - b.position)
        .map((juryClass) => ({ name: juryClass.name, headJudge: juryClass.headJudge?.id === user.id })),
      scores: scores
        .filter((row) => inEdition(row.juryClass as unknown as JuryClass))
        .map((row) => {
          const juryClass = row.juryClass as unknown as JuryClass;
          return {
            class: juryClass.name,
            ...carOf(row.vehicle.id),
            criterion: juryClass.criteria.find((c) => c.id === row.criterion)?.name ?? row.criterion,
            value: row.value,
            enteredAt: row.enteredAt,
          };
        }),
      biasDeclarations: recusals
        .filter((row) => row.edition.id === edition.id)
        .map((row) => ({ ...carOf(row.vehicle.id), declaredAt: row.enteredAt })),
    };
  });
  // Sent to an address, an invitation is the person's only once they confirmed that address.
  const invitations = user.emailVerified
    ? (await invitesTo(em, user.email)).map((invite) => ({
        edition: (invite.edition as unknown as Edition).name,
        email: invite.email,
        invitedAt: invite.createdAt,
      }))
    : [];
  return { judged, invitations };
}

/** Deletes the invitations to judge sent to this (confirmed) address's mailbox. */
export async function deleteJuryInvitesTo(em: EntityManager, email: string): Promise<number> {
  const invites = await invitesTo(em, email);
  if (invites.length === 0) return 0;
  return em.nativeDelete(JuryInvite, { id: { $in: invites.map((invite) => invite.id) } });
}
