import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122022105_initial } from './Migration20261122022105_initial.js';

/** Every migration, in order. `npm run cli -- migration:create` writes new ones; list them here. */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261122022105_initial', class: Migration20261122022105_initial },
];
