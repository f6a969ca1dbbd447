import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122022105_initial } from './Migration20261122022105_initial.js';
import { Migration20261122024448_schema2 } from './Migration20261122024448_schema2.js';
import { Migration20261122031606_schema3 } from './Migration20261122031606_schema3.js';
import { Migration20261123002000_public_list_notify } from './Migration20261123002000_public_list_notify.js';

/** Every migration, in order. `npm run cli -- migration:create` writes new ones; list them here. */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261122022105_initial', class: Migration20261122022105_initial },
  { name: 'Migration20261122024448_schema2', class: Migration20261122024448_schema2 },
  { name: 'Migration20261122031606_schema3', class: Migration20261122031606_schema3 },
  { name: 'Migration20261123002000_public_list_notify', class: Migration20261123002000_public_list_notify },
];
