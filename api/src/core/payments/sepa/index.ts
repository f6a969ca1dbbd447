export { writePain001, PAIN001_LIMITS, PAIN001_NAMESPACE } from './pain001.js';
export type { Pain001Account, Pain001Input, Pain001Transfer } from './pain001.js';
export { toSepaText, isSepaIdentifier } from './sepa-text.js';
export { SEPA_MESSAGES } from './messages.js';
