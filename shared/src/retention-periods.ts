/** How long personal data is kept by default, in days, per rule (the site config needs only this). */
export const RETENTION_DEFAULT_DAYS = {
  visitorsAfterEvent: 30,
  visitorsForNextEdition: 730,
  awardVotersAfterEvent: 30,
  unconfirmedAwardVoters: 7,
  juryScoresAfterEvent: 90,
  juryInvites: 14,
  unassignedBankLines: 90,
  rejectedAfterEvent: 30,
  unconfirmedVisitors: 7,
  unattachedUploads: 1,
  emailLog: 30,
  mailBounces: 180,
  outbox: 30,
  quartettExportsAfterEvent: 90,
  gateScansAfterEvent: 30,
  accountExports: 7,
  auditLog: 730,
} as const;
export type RetentionRule = keyof typeof RETENTION_DEFAULT_DAYS;
export type RetentionPeriods = Record<RetentionRule, number>;

export const DEFAULT_RETENTION: RetentionPeriods = { ...RETENTION_DEFAULT_DAYS };
