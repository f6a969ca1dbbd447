import { Text } from '@react-email/components';
import type { EmailTemplateProps, EventFacts } from '@schlosstreffen/shared';
import type { ReactNode } from 'react';
import { PREVIEW_EVENT } from './preview-event.js';
import { ActionButton, EmailLayout, styles } from './layout.js';

export type ApplicationMailProps = EmailTemplateProps<'application-received'>;

/** The frame every status mail to an applicant shares: greeting, the status text, the dashboard. */
export function ApplicationMail({
  preview,
  title,
  firstName,
  dashboardUrl,
  children,
}: { preview: string; title: string; children: ReactNode } & Omit<ApplicationMailProps, 'vehicleTitle'>) {
  return (
    <EmailLayout preview={preview} title={title}>
      <Text style={styles.text}>{`Hallo ${firstName},`}</Text>
      {children}
      <ActionButton href={dashboardUrl}>Zum Dashboard</ActionButton>
    </EmailLayout>
  );
}

export const APPLICATION_PREVIEW_PROPS = {
  firstName: 'Max',
  vehicleTitle: 'BMW M3 E46',
  dashboardUrl: 'http://localhost:3000/dashboard',
  event: PREVIEW_EVENT,
} satisfies ApplicationMailProps & { event: EventFacts };
