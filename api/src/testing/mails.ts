import { EmailLog } from '../core/model/email-log.entity.js';
import { Outbox } from '../core/model/outbox.entity.js';
import { Vehicle } from '../core/model/vehicle.entity.js';
import type { TestContext } from './test-context.js';

/**
 * A receipt mail about the vehicle that went out to its owner, as the worker leaves it (its outbox
 * row and email log row); the log row's id.
 */
export async function insertSentMail(t: TestContext, vehicleId: string): Promise<string> {
  const em = t.orm.em.fork();
  const vehicle = await em.findOneOrFail(Vehicle, vehicleId, { populate: ['user'] });
  const row = em.create(Outbox, {
    job: 'email.send',
    payload: {
      template: 'application-received',
      to: vehicle.user.email,
      props: {
        firstName: 'Lena',
        vehicleTitle: 'BMW M3 E46',
        dashboardUrl: `${t.config.publicUrl}/dashboard`,
      },
      vehicleId,
    },
    publishedAt: new Date(),
  });
  const log = em.create(EmailLog, {
    jobId: row.id,
    recipient: vehicle.user.email,
    template: 'application-received',
    vehicleId,
    status: 'sent',
    attempts: 1,
    sentAt: new Date(),
  });
  await em.flush();
  return log.id;
}
