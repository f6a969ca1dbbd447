import type * as Api from '@schlosstreffen/shared/api';
import type { StaffRow } from '../../core/accounts/accounts.queries.js';

/** A staff account as the Team page shows it: name, address, role, second factor; no secrets. */
export function presentTeamMember(row: StaffRow): Api.TeamMember {
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    role: row.role,
    secondFactorSince: row.second_factor_enabled_at
      ? new Date(row.second_factor_enabled_at).toISOString()
      : null,
    recoveryCodesLeft: row.second_factor_enabled_at ? row.recovery_codes_left : 0,
  };
}
