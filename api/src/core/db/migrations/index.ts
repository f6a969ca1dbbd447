import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122022105_initial } from './Migration20261122022105_initial.js';
import { Migration20261122024448_schema2 } from './Migration20261122024448_schema2.js';
import { Migration20261122031606_schema3 } from './Migration20261122031606_schema3.js';
import { Migration20261123002000_public_list_notify } from './Migration20261123002000_public_list_notify.js';
import { Migration20261124000000_personal_data } from './Migration20261124000000_personal_data.js';
import { Migration20261125000000_session_hashes } from './Migration20261125000000_session_hashes.js';
import { Migration20261126000000_upload_attached } from './Migration20261126000000_upload_attached.js';
import { Migration20261127000000_invitation_deadlines } from './Migration20261127000000_invitation_deadlines.js';
import { Migration20261127100000_visitor_updates } from './Migration20261127100000_visitor_updates.js';
import { Migration20261128000000_gate_scans } from './Migration20261128000000_gate_scans.js';
import { Migration20261129000000_admin_list_indexes } from './Migration20261129000000_admin_list_indexes.js';
import { Migration20261130000000_confirmed_addresses } from './Migration20261130000000_confirmed_addresses.js';
import { Migration20261201000000_editions } from './Migration20261201000000_editions.js';
import { Migration20261202000000_edition_data } from './Migration20261202000000_edition_data.js';
import { Migration20261203000000_cars } from './Migration20261203000000_cars.js';
import { Migration20261204000000_visitor_next_edition } from './Migration20261204000000_visitor_next_edition.js';
import { Migration20261205000000_media_copied_from } from './Migration20261205000000_media_copied_from.js';
import { Migration20261206000000_review_assignments } from './Migration20261206000000_review_assignments.js';
import { Migration20261207000000_second_factor } from './Migration20261207000000_second_factor.js';
import { Migration20261208000000_audit_log } from './Migration20261208000000_audit_log.js';
import { Migration20261209000000_mail_fate } from './Migration20261209000000_mail_fate.js';
import { Migration20261210000000_public_texts } from './Migration20261210000000_public_texts.js';
import { Migration20261211000000_mail_templates } from './Migration20261211000000_mail_templates.js';
import { Migration20261212100000_review_exclusions } from './Migration20261212100000_review_exclusions.js';
import { Migration20261213000000_audit_route } from './Migration20261213000000_audit_route.js';
import { Migration20261213100000_visitor_consent_mail } from './Migration20261213100000_visitor_consent_mail.js';
import { Migration20261214000000_status_correction } from './Migration20261214000000_status_correction.js';
import { Migration20261215200000_outbox_request_id } from './Migration20261215200000_outbox_request_id.js';
import { Migration20261216000000_public_inputs } from './Migration20261216000000_public_inputs.js';
import { Migration20261217000000_sign_export } from './Migration20261217000000_sign_export.js';
import { Migration20261218000000_car_pages } from './Migration20261218000000_car_pages.js';
import { Migration20261219100000_award } from './Migration20261219100000_award.js';
import { Migration20261219200000_award_look_back } from './Migration20261219200000_award_look_back.js';
import { Migration20261220300000_award_vote_browser } from './Migration20261220300000_award_vote_browser.js';
import { Migration20261221000000_car_page_input } from './Migration20261221000000_car_page_input.js';
import { Migration20261222000000_erasure_journal } from './Migration20261222000000_erasure_journal.js';
import { Migration20261222100000_award_mailbox } from './Migration20261222100000_award_mailbox.js';
import { Migration20261222200000_award_corrections } from './Migration20261222200000_award_corrections.js';
import { Migration20261223000000_jury } from './Migration20261223000000_jury.js';
import { Migration20261224000000_edition_fee } from './Migration20261224000000_edition_fee.js';
import { Migration20261225000000_payments } from './Migration20261225000000_payments.js';
import { Migration20261226000000_visitor_tickets } from './Migration20261226000000_visitor_tickets.js';
import { Migration20261227000000_visitor_gate } from './Migration20261227000000_visitor_gate.js';

/** Every migration, in order. `npm run cli -- migration:create` writes new ones; list them here. */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261122022105_initial', class: Migration20261122022105_initial },
  { name: 'Migration20261122024448_schema2', class: Migration20261122024448_schema2 },
  { name: 'Migration20261122031606_schema3', class: Migration20261122031606_schema3 },
  { name: 'Migration20261123002000_public_list_notify', class: Migration20261123002000_public_list_notify },
  { name: 'Migration20261124000000_personal_data', class: Migration20261124000000_personal_data },
  { name: 'Migration20261125000000_session_hashes', class: Migration20261125000000_session_hashes },
  { name: 'Migration20261126000000_upload_attached', class: Migration20261126000000_upload_attached },
  {
    name: 'Migration20261127000000_invitation_deadlines',
    class: Migration20261127000000_invitation_deadlines,
  },
  { name: 'Migration20261127100000_visitor_updates', class: Migration20261127100000_visitor_updates },
  { name: 'Migration20261128000000_gate_scans', class: Migration20261128000000_gate_scans },
  { name: 'Migration20261129000000_admin_list_indexes', class: Migration20261129000000_admin_list_indexes },
  {
    name: 'Migration20261130000000_confirmed_addresses',
    class: Migration20261130000000_confirmed_addresses,
  },
  { name: 'Migration20261201000000_editions', class: Migration20261201000000_editions },
  { name: 'Migration20261202000000_edition_data', class: Migration20261202000000_edition_data },
  { name: 'Migration20261203000000_cars', class: Migration20261203000000_cars },
  {
    name: 'Migration20261204000000_visitor_next_edition',
    class: Migration20261204000000_visitor_next_edition,
  },
  { name: 'Migration20261205000000_media_copied_from', class: Migration20261205000000_media_copied_from },
  {
    name: 'Migration20261206000000_review_assignments',
    class: Migration20261206000000_review_assignments,
  },
  { name: 'Migration20261207000000_second_factor', class: Migration20261207000000_second_factor },
  { name: 'Migration20261208000000_audit_log', class: Migration20261208000000_audit_log },
  { name: 'Migration20261209000000_mail_fate', class: Migration20261209000000_mail_fate },
  { name: 'Migration20261210000000_public_texts', class: Migration20261210000000_public_texts },
  { name: 'Migration20261211000000_mail_templates', class: Migration20261211000000_mail_templates },
  {
    name: 'Migration20261212100000_review_exclusions',
    class: Migration20261212100000_review_exclusions,
  },
  { name: 'Migration20261213000000_audit_route', class: Migration20261213000000_audit_route },
  {
    name: 'Migration20261213100000_visitor_consent_mail',
    class: Migration20261213100000_visitor_consent_mail,
  },
  { name: 'Migration20261214000000_status_correction', class: Migration20261214000000_status_correction },
  { name: 'Migration20261215200000_outbox_request_id', class: Migration20261215200000_outbox_request_id },
  { name: 'Migration20261216000000_public_inputs', class: Migration20261216000000_public_inputs },
  { name: 'Migration20261217000000_sign_export', class: Migration20261217000000_sign_export },
  { name: 'Migration20261218000000_car_pages', class: Migration20261218000000_car_pages },
  { name: 'Migration20261219100000_award', class: Migration20261219100000_award },
  { name: 'Migration20261219200000_award_look_back', class: Migration20261219200000_award_look_back },
  {
    name: 'Migration20261220300000_award_vote_browser',
    class: Migration20261220300000_award_vote_browser,
  },
  { name: 'Migration20261221000000_car_page_input', class: Migration20261221000000_car_page_input },
  { name: 'Migration20261222000000_erasure_journal', class: Migration20261222000000_erasure_journal },
  { name: 'Migration20261222100000_award_mailbox', class: Migration20261222100000_award_mailbox },
  {
    name: 'Migration20261222200000_award_corrections',
    class: Migration20261222200000_award_corrections,
  },
  { name: 'Migration20261223000000_jury', class: Migration20261223000000_jury },
  { name: 'Migration20261224000000_edition_fee', class: Migration20261224000000_edition_fee },
  { name: 'Migration20261225000000_payments', class: Migration20261225000000_payments },
  {
    name: 'Migration20261226000000_visitor_tickets',
    class: Migration20261226000000_visitor_tickets,
  },
  { name: 'Migration20261227000000_visitor_gate', class: Migration20261227000000_visitor_gate },
];
