export { APPLYING_NOON, createTestContext, EVENT_DAY_NOON, TEST_ORIGIN, testClock } from './context.js';
export type { SignedIn, TestContext } from './test-context.js';
export { TestClient, type TestResponse } from './http-client.js';
export type { ProvidedServices } from './services.js';
export {
  createVehicle,
  insertConfirmedUser,
  insertListedVehicle,
  mailedLinkToken,
  makeRoomForVehicle,
  PASSWORD,
  registerUser,
  signInConfirmed,
  SUBMISSION_CONSENTS,
  uniqueEmail,
} from './factories.js';
export { readZip, type ZipEntry } from './zip.js';
export { insertSentMail } from './mails.js';
export { parseMetrics, sampleValue, type Sample } from './metrics.js';
export {
  insertSubmittedApplications,
  withdrawContactConsent,
  type InsertedApplication,
} from './applications.js';
export { auditedRoutesOf, routesOf, type AuditedRouteOf, type RouteOf } from './routes.js';
export {
  ACTORS,
  changeStatus,
  createWorld,
  insertImage,
  insertReadySet,
  putObject,
  signInAs,
  type Account,
  type Actor,
  type SignedInActor,
  type World,
} from './world.js';
export { findOrphans, type IntegrityReport } from './integrity.js';
export { insertCar, type CarOptions } from './car-pages.js';
export { insertVotableCar, openVotingForTest } from './award.js';
export { correctTestJury, judgeTestEdition, type JuryValueOf } from './jury.js';
export { insertBankLine, openTestPayment, setTestFee, TEST_FEE } from './payments.js';
