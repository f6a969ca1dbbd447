import type { MailKey } from '../mail-templates.js';

/** One mail on 'E-Mail-Vorlagen': its current version (0: the default text) and its last change. */
export interface MailTemplateSummary {
  key: MailKey;
  version: number;
  /** The text in use is the default (never edited, or restored). */
  isDefault: boolean;
  changedAt: string | null;
  changedBy: string | null;
}

export interface MailTemplateList {
  edition: { year: number };
  mails: MailTemplateSummary[];
}

export interface MailTemplateVersion {
  version: number;
  isDefault: boolean;
  subject: string;
  createdAt: string;
  /** The editor's name, or 'Gelöschtes Konto'. */
  createdBy: string;
}

export interface MailTemplateView extends MailTemplateSummary {
  edition: { year: number };
  subject: string;
  body: string;
  /** Newest first. */
  versions: MailTemplateVersion[];
}

/** The values a mail's placeholders take for a chosen application (or made-up data). */
export interface MailSampleView {
  /** The application whose data fills the preview; null: made-up data. */
  vehicle: { id: string; title: string } | null;
  values: Record<string, string>;
  /** Applications of the edition to choose from (title and status only). */
  vehicles: Array<{ id: string; title: string; status: string }>;
}
