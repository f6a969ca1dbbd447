/** Startgeld by bank transfer: the browser-safe parts (bank accounts, fee, reference, GiroCode, money). */
export * from './bank-account.js';
export * from './fee.js';
export * from './reference.js';
export * from './epc-qr.js';
export * from './money.js';
export * from './payment-status.js';
export * from './messages.js';
export * from './schemas.js';
