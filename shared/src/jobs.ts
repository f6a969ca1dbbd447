import * as v from 'valibot';

/** Email templates the worker can render; props are validated per template. */
/** What every status mail to an applicant shows (never internal notes). */
const applicationMailProps = v.object({
  firstName: v.string(),
  /** The card name, else brand plus model. */
  vehicleTitle: v.string(),
  dashboardUrl: v.pipe(v.string(), v.url()),
});

const cents = v.pipe(v.number(), v.integer(), v.minValue(1));

/**
 * The bank transfer of an edition's participation fee ('Startgeld') as a mail shows it: amount,
 * account, the invitation's payment reference and the payment deadline (ISO instant; null: none).
 * The worker draws its GiroCode (EPC069-12) from the same facts.
 */
export const PaymentMailSchema = v.object({
  amountCents: cents,
  accountHolder: v.pipe(v.string(), v.nonEmpty()),
  iban: v.pipe(v.string(), v.nonEmpty()),
  bic: v.nullable(v.string()),
  reference: v.pipe(v.string(), v.nonEmpty()),
  dueAt: v.nullable(v.pipe(v.string(), v.isoTimestamp())),
});
export type PaymentMailProps = v.InferOutput<typeof PaymentMailSchema>;

export const EMAIL_TEMPLATES = {
  /** Anyone can ask for it: it names nobody (a name in a job queued before is ignored). */
  'password-reset': v.object({ resetUrl: v.pipe(v.string(), v.url()) }),
  /** To a new account's address: the link that confirms it (names nobody). */
  'account-confirm': v.object({ confirmUrl: v.pipe(v.string(), v.url()) }),
  /** To an address nobody has confirmed: names nobody (a name in a job queued before is ignored). */
  'visitor-confirmation': v.object({
    /** Pages with a button: a link scanner's GET changes nothing. */
    confirmUrl: v.pipe(v.string(), v.url()),
    unsubscribeUrl: v.pipe(v.string(), v.url()),
    /** Where mail clients POST one-click unsubscribe (List-Unsubscribe-Post). */
    oneClickUrl: v.pipe(v.string(), v.url()),
  }),
  /**
   * To a confirmed visitor of an earlier edition who asked to hear about the next one, once that
   * one is on the landing page: where to sign up for it, and how to be forgotten.
   */
  'visitor-next-edition': v.object({
    firstName: v.string(),
    signUpUrl: v.pipe(v.string(), v.url()),
    unsubscribeUrl: v.pipe(v.string(), v.url()),
    oneClickUrl: v.pipe(v.string(), v.url()),
  }),
  /**
   * To a visitor's address, asked for by a repeated sign-up with the next edition's tick (anyone's):
   * the link that adds the consent. Names nobody.
   */
  'visitor-next-edition-consent': v.object({
    consentUrl: v.pipe(v.string(), v.url()),
    unsubscribeUrl: v.pipe(v.string(), v.url()),
    oneClickUrl: v.pipe(v.string(), v.url()),
  }),
  /**
   * To an address given with a vote for the visitors' award: the link that confirms it (a page with
   * one button) and the link to the address's own votes. Anyone can cause it: it names nobody and no car.
   */
  'award-confirmation': v.object({
    confirmUrl: v.pipe(v.string(), v.url()),
    votesUrl: v.pipe(v.string(), v.url()),
  }),
  /** An invitation to judge an edition: the link works for an account that confirmed this address. */
  'jury-invitation': v.object({
    editionName: v.string(),
    acceptUrl: v.pipe(v.string(), v.url()),
  }),
  /** Status submitted: the application arrived. */
  'application-received': applicationMailProps,
  'application-waitlist': applicationMailProps,
  'application-confirmed': applicationMailProps,
  'application-rejected': applicationMailProps,
  /** To the new address of an email change: the link that makes it take effect (names nothing typed). */
  'email-change-confirm': v.object({ confirmUrl: v.pipe(v.string(), v.url()) }),
  /** To the old address: someone asked to change the account's email; the link cancels it. */
  'email-change-notice': v.object({
    firstName: v.string(),
    newEmail: v.string(),
    cancelUrl: v.pipe(v.string(), v.url()),
  }),
  /** To the account's address: its password was changed. */
  'password-changed': v.object({ firstName: v.string() }),
  /** Status invited: QR code of the check-in code, start number, parking zone and the confirm link (date, time and place come with every mail's event facts). */
  invitation: v.object({
    ...applicationMailProps.entries,
    startNumber: v.pipe(v.number(), v.integer(), v.minValue(1)),
    parkingZone: v.string(),
    checkInCode: v.pipe(v.string(), v.minLength(22)),
    confirmUrl: v.pipe(v.string(), v.url()),
    /** ISO instant; null when issued after the cut-off (no deadline). */
    confirmBy: v.optional(v.nullable(v.pipe(v.string(), v.isoTimestamp())), null),
    /** 'Teilnahme absagen' link (sealed). */
    declineUrl: v.optional(v.pipe(v.string(), v.url())),
    /** The vehicle moved up from the waitlist. */
    movedUp: v.optional(v.boolean(), false),
    /** The edition's fee to transfer, shown under the text with its GiroCode; null: no fee. */
    payment: v.optional(v.nullable(PaymentMailSchema), null),
  }),
  /** A few days before the confirm-by date, while the invitation is unconfirmed. */
  'invitation-reminder': v.object({
    ...applicationMailProps.entries,
    startNumber: v.pipe(v.number(), v.integer(), v.minValue(1)),
    confirmBy: v.pipe(v.string(), v.isoTimestamp()),
    confirmUrl: v.pipe(v.string(), v.url()),
    declineUrl: v.pipe(v.string(), v.url()),
  }),
  /** The confirm-by date passed: the place went to the waitlist. */
  'invitation-lapsed': v.object({
    ...applicationMailProps.entries,
    confirmBy: v.pipe(v.string(), v.isoTimestamp()),
  }),
  /** The owner declined: the place went to the waitlist. */
  'invitation-declined': applicationMailProps,
  /** A few days before the payment deadline, while the fee is not paid in full: its transfer again. */
  'payment-reminder': v.object({
    ...applicationMailProps.entries,
    payment: v.object({ ...PaymentMailSchema.entries, dueAt: v.pipe(v.string(), v.isoTimestamp()) }),
    /** What is still to transfer. */
    openCents: cents,
  }),
  /** A transfer arrived but less than the fee: what came and what is still open. */
  'payment-partial': v.object({
    ...applicationMailProps.entries,
    payment: PaymentMailSchema,
    paidCents: cents,
    openCents: cents,
  }),
  /** The payment deadline passed without the whole fee: the place went to the waitlist. */
  'payment-lapsed': v.object({
    ...applicationMailProps.entries,
    dueAt: v.pipe(v.string(), v.isoTimestamp()),
  }),
  /** An event update ('Besucher-Updates') to a confirmed visitor, with one-click unsubscribe. */
  'visitor-update': v.object({
    firstName: v.string(),
    subject: v.pipe(v.string(), v.nonEmpty()),
    body: v.pipe(v.string(), v.nonEmpty()),
    unsubscribeUrl: v.pipe(v.string(), v.url()),
    /** Where mail clients POST one-click unsubscribe (List-Unsubscribe-Post). */
    oneClickUrl: v.pipe(v.string(), v.url()),
    /** A test to the admin: the unsubscribe link does nothing. */
    test: v.optional(v.boolean(), false),
  }),
  /**
   * A confirmed visitor's free ticket ('Besucherticket') of an edition with a visitor capacity: the
   * ticket page, the link that gives it back and the secret its QR code holds (all sealed, as the
   * unsubscribe links). The worker shows the QR code and attaches the ticket as PDF.
   */
  'visitor-ticket': v.object({
    firstName: v.string(),
    /** The online ticket page (it works offline once opened). */
    ticketUrl: v.pipe(v.string(), v.url()),
    /** 'Ticket zurückgeben': a page with a button. */
    returnUrl: v.pipe(v.string(), v.url()),
    /** What the ticket's QR code holds; the gate admits it once. */
    ticketSecret: v.pipe(v.string(), v.minLength(20)),
    /** The place came from the waiting list. */
    movedUp: v.optional(v.boolean(), false),
    unsubscribeUrl: v.pipe(v.string(), v.url()),
    oneClickUrl: v.pipe(v.string(), v.url()),
  }),
  /** The visitor capacity is reached: the confirmed visitor is on the waiting list. */
  'visitor-ticket-waiting': v.object({
    firstName: v.string(),
    unsubscribeUrl: v.pipe(v.string(), v.url()),
    oneClickUrl: v.pipe(v.string(), v.url()),
  }),
  /** The visitor gave the ticket back: its place goes to the next on the waiting list. */
  'visitor-ticket-returned': v.object({
    firstName: v.string(),
    unsubscribeUrl: v.pipe(v.string(), v.url()),
    oneClickUrl: v.pipe(v.string(), v.url()),
  }),
} as const;

export type EmailTemplateName = keyof typeof EMAIL_TEMPLATES;

/**
 * Mails that go to an account's address and are sent only once that address is confirmed. The
 * others confirm an address themselves (account confirmation, email change, password reset, whose
 * link proves the address) or go to a visitor's own confirmed registration.
 */
export const CONFIRMED_ADDRESS_TEMPLATES: ReadonlySet<EmailTemplateName> = new Set<EmailTemplateName>([
  'application-received',
  'application-waitlist',
  'application-confirmed',
  'application-rejected',
  'email-change-notice',
  'password-changed',
  'invitation',
  'invitation-reminder',
  'invitation-lapsed',
  'invitation-declined',
  'payment-reminder',
  'payment-partial',
  'payment-lapsed',
]);
export type EmailTemplateProps<T extends EmailTemplateName> = v.InferOutput<(typeof EMAIL_TEMPLATES)[T]>;

/**
 * Payload of an email job. Values that must not be stored in clear (such as reset tokens) travel
 * in `sealed`: an AES-GCM box the worker opens and merges into `props` before rendering.
 */
const EmailJobSchema = v.object({
  template: v.picklist(Object.keys(EMAIL_TEMPLATES) as [EmailTemplateName, ...EmailTemplateName[]]),
  to: v.pipe(v.string(), v.email()),
  props: v.record(v.string(), v.unknown()),
  sealed: v.optional(v.string()),
  /** The application the mail is about: its email log row is listed in the admin's dialog. */
  vehicleId: v.optional(v.pipe(v.string(), v.uuid())),
  /** The edition whose mail text to use when no vehicle names it; else the current one. */
  editionId: v.optional(v.pipe(v.string(), v.uuid())),
  /** 'Testmail an mich': an unsaved text to render instead of the edition's. */
  draft: v.optional(v.object({ subject: v.string(), body: v.string() })),
});

const MediaThumbnailJobSchema = v.object({ mediaId: v.pipe(v.string(), v.uuid()) });

/**
 * A photo carried over to a new application: the clean full-size copy `from` (a stored object key)
 * becomes the new media row's upload, which the thumbnail job then cleans and renders.
 */
const MediaCopyJobSchema = v.object({
  mediaId: v.pipe(v.string(), v.uuid()),
  from: v.pipe(v.string(), v.startsWith('media/')),
});

/** Object keys (no leading slash) and key prefixes (ending in '/') to remove. */
const StorageDeleteJobSchema = v.object({
  keys: v.array(v.pipe(v.string(), v.nonEmpty())),
  prefixes: v.optional(v.array(v.pipe(v.string(), v.nonEmpty(), v.endsWith('/')))),
});

/** Remove uploads and data export ZIPs that no row names and that were stored before `before` (ISO). */
const StorageSweepJobSchema = v.object({ before: v.pipe(v.string(), v.isoTimestamp()) });

const InvitationIssueJobSchema = v.object({ vehicleId: v.pipe(v.string(), v.uuid()) });

/** Pass given-up places on to the waitlist: the job reads them from the database. */
/** The edition whose given-up places to pass on; the current one when absent (jobs queued before editions). */
const WaitlistAdvanceJobSchema = v.object({ editionId: v.optional(v.pipe(v.string(), v.uuid())) });

/** Give confirmed visitors of an edition their ticket or a place on the waiting list (read from the database). */
const VisitorTicketsAllocateJobSchema = v.object({ editionId: v.pipe(v.string(), v.uuid()) });

/** Render the preview of an update's draft with the real template (for this revision). */
const VisitorUpdatePreviewJobSchema = v.object({
  updateId: v.pipe(v.string(), v.uuid()),
  revision: v.pipe(v.number(), v.integer(), v.minValue(1)),
});
/** Send an update to its recipients, resuming where a run before stopped. */
const VisitorUpdateSendJobSchema = v.object({ updateId: v.pipe(v.string(), v.uuid()) });

const QuartettExportJobSchema = v.object({ setId: v.pipe(v.string(), v.uuid()) });

/** Render a windshield sign PDF (an edition's set or one car's). */
const SignExportJobSchema = v.object({ exportId: v.pipe(v.string(), v.uuid()) });

/** Prepare the print photo of a vehicle's card (its hero, else first clean image, cropped). */
const QuartettPrintPhotoJobSchema = v.object({ vehicleId: v.pipe(v.string(), v.uuid()) });

/** Draw a listed car's link preview (1200×630) from its hero photo, title, meeting and start number. */
const ShareImageJobSchema = v.object({ vehicleId: v.pipe(v.string(), v.uuid()) });

const AccountExportJobSchema = v.object({ exportId: v.pipe(v.string(), v.uuid()) });

/** Render the visitors' award certificates of an edition's first three, once its voting closed. */
const AwardCertificatesJobSchema = v.object({ editionId: v.pipe(v.string(), v.uuid()) });

/** Render the jury's certificates of an edition (one print file, a page per place) for this version of its results. */
const JuryCertificatesJobSchema = v.object({
  editionId: v.pipe(v.string(), v.uuid()),
  version: v.pipe(v.number(), v.integer(), v.minValue(1)),
});

/** Job ids (outbox row ids) whose data in the queues names a deleted person. */
const EraseJobsJobSchema = v.object({ jobIds: v.array(v.pipe(v.string(), v.maxLength(100))) });

/** Copy one erasure journal entry (by its row id) to the journal in shared storage. */
const ErasureJournalJobSchema = v.object({ entryId: v.pipe(v.string(), v.uuid()) });

/** The scheduler's beat; `asOf` (ISO) runs it for another moment than now. */
const SchedulerTickJobSchema = v.object({ asOf: v.optional(v.pipe(v.string(), v.isoTimestamp())) });

/** The job catalogue: job name → queue and payload schema. One queue per kind of work. */
export const JOBS = {
  'email.send': { queue: 'email', payload: EmailJobSchema },
  /** Decode, check and render the WebP renditions of a newly attached image. */
  'media.thumbnail': { queue: 'media', payload: MediaThumbnailJobSchema },
  'media.copy': { queue: 'media', payload: MediaCopyJobSchema },
  /** Delete objects (and everything under the prefixes) from the bucket after their rows are gone. */
  'storage.delete': { queue: 'media', payload: StorageDeleteJobSchema },
  /** Delete uploads and data export ZIPs that no row names (retention's backstop, once an hour). */
  'storage.sweep': { queue: 'media', payload: StorageSweepJobSchema },
  /** Give an invited vehicle its invitation (start number, zone, check-in code) and mail it. */
  'invitation.issue': { queue: 'invitation', payload: InvitationIssueJobSchema },
  /** Invite the next waitlisted vehicles into free places (automatic moving up). */
  'waitlist.advance': { queue: 'invitation', payload: WaitlistAdvanceJobSchema },
  /** Tickets for the edition's confirmed visitors up to its capacity, in the order of confirmation; the rest wait. */
  'visitor-tickets.allocate': { queue: 'updates', payload: VisitorTicketsAllocateJobSchema },
  /** Render an update draft's preview with the real mail template. */
  'visitor-update.preview': { queue: 'updates', payload: VisitorUpdatePreviewJobSchema },
  /** Send an update to the visitors, rate-limited, each recipient once. */
  'visitor-update.send': { queue: 'updates', payload: VisitorUpdateSendJobSchema },
  /** Render a quartett set's print PDF and store it in S3. */
  'quartett.export': { queue: 'export', payload: QuartettExportJobSchema },
  /** Render windshield signs (start number, zone, QR code to the car's page) and store the PDF in S3. */
  'sign.export': { queue: 'export', payload: SignExportJobSchema },
  /** Write a vehicle's card photo as print-ready JPEG (300 dpi, crop and zoom applied) for the export. */
  'quartett.print-photo': { queue: 'media', payload: QuartettPrintPhotoJobSchema },
  /** Draw a listed car's link preview for its page and store it in S3 (idempotent: a current one stays). */
  'share-image.render': { queue: 'media', payload: ShareImageJobSchema },
  /** Render the 'Urkunde' PDFs of the visitors' award's first three and store them in S3. */
  'award.certificates': { queue: 'export', payload: AwardCertificatesJobSchema },
  /** Render the jury's certificates (one print file per edition) once results are published or corrected. */
  'jury.certificates': { queue: 'export', payload: JuryCertificatesJobSchema },
  /** Build a person's data export (JSON and clean photos) as one ZIP. */
  'account.export': { queue: 'privacy', payload: AccountExportJobSchema },
  /** Remove jobs whose data names a deleted person from every queue. */
  'privacy.erase-jobs': { queue: 'privacy', payload: EraseJobsJobSchema },
  /** Write an erasure to the shared journal that a restore replays (within seconds of the erasure). */
  'erasure.journal': { queue: 'privacy', payload: ErasureJournalJobSchema },
  /** Everything that depends on the date: retention (and, later, deadlines). */
  'scheduler.tick': { queue: 'scheduler', payload: SchedulerTickJobSchema },
} as const;

export type JobName = keyof typeof JOBS;
export type JobPayload<N extends JobName> = v.InferOutput<(typeof JOBS)[N]['payload']>;
export type QueueName = (typeof JOBS)[JobName]['queue'];
export const QUEUE_NAMES = [...new Set(Object.values(JOBS).map((job) => job.queue))] as QueueName[];

export function parseJobPayload<N extends JobName>(name: N, payload: unknown): JobPayload<N> {
  return v.parse(JOBS[name].payload, payload) as JobPayload<N>;
}
