import type { MailSampleView, MailTemplateList, MailTemplateView } from '@schlosstreffen/shared/api';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';

export const mailTemplatesKey = ['mail-templates'] as const;

/** Every mail of the chosen edition with its version in use. */
export const mailTemplateListQueryOptions = queryOptions({
  queryKey: [...mailTemplatesKey, 'list'] as const,
  queryFn: ({ signal }) => apiGet<MailTemplateList>('/api/admin/mail-templates', { signal }),
});

/** One mail: its text in use and its versions. */
export const mailTemplateQueryOptions = (mail: string) =>
  queryOptions({
    queryKey: [...mailTemplatesKey, 'mail', mail] as const,
    queryFn: ({ signal }) =>
      apiGet<MailTemplateView>(`/api/admin/mail-templates/${encodeURIComponent(mail)}`, { signal }),
  });

/** The placeholders' values for a chosen application ('' : made-up data). */
export const mailSampleQueryOptions = (mail: string, vehicleId: string) =>
  queryOptions({
    queryKey: [...mailTemplatesKey, 'sample', mail, vehicleId] as const,
    queryFn: ({ signal }) =>
      apiGet<MailSampleView>(
        `/api/admin/mail-templates/${encodeURIComponent(mail)}/sample${vehicleId ? `?fahrzeug=${encodeURIComponent(vehicleId)}` : ''}`,
        { signal },
      ),
    placeholderData: (previous) => previous,
  });
