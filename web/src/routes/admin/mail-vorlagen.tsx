import { createFileRoute } from '@tanstack/react-router';
import { adminHead, startQueryFor } from '../../features/admin/admin-access';
import { mailTemplateListQueryOptions } from '../../features/admin/communication/mail-templates-queries';
import { MailTemplatesPage } from '../../features/admin/communication/mail-templates-page';

// Admins only: reviewers see 'Zugriff verweigert' and never call the API.
export const Route = createFileRoute('/admin/mail-vorlagen')({
  // The mail shown: its key (checked against the list by the page).
  validateSearch: (search: Record<string, unknown>): { mail?: string } =>
    typeof search.mail === 'string' && search.mail ? { mail: search.mail } : {},
  loader: startQueryFor('admin', mailTemplateListQueryOptions),
  head: adminHead(
    'admin',
    'E-Mail-Vorlagen – Adminbereich – Schlosstreffen',
    'Betreff und Text jeder E-Mail pro Ausgabe bearbeiten, mit Platzhaltern, Vorschau und Testmail.',
  ),
  component: MailTemplatesPage,
});
