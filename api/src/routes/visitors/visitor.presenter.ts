import { spreadsheetCsvText } from '../../http/csv.js';
import { formatAtVenue, VISITOR_CSV_HEADER, VISITOR_STATE_LABELS } from '@schlosstreffen/shared';
import type * as Api from '@schlosstreffen/shared/api';
import type { VisitorRegistration } from '../../core/model/visitor-registration.entity.js';
import { visitorState } from '../../core/visitors/visitor.service.js';

export function presentVisitor(row: VisitorRegistration): Api.AdminVisitor {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    phone: row.phone ?? null,
    createdAt: row.createdAt.toISOString(),
    confirmedAt: row.confirmedAt?.toISOString() ?? null,
    unsubscribedAt: row.unsubscribedAt?.toISOString() ?? null,
    state: visitorState(row),
  };
}

/** Every registration with counts per state. */
export function presentVisitorList(rows: VisitorRegistration[]): Api.AdminVisitorList {
  const visitors = rows.map(presentVisitor);
  const counts = { total: visitors.length, pending: 0, confirmed: 0, unsubscribed: 0 };
  for (const visitor of visitors) counts[visitor.state] += 1;
  return { visitors, counts };
}

/** UTF-8 BOM, semicolons and CRLF: what German Excel opens without an import dialog. */
export function visitorsToCsv(visitors: Api.AdminVisitor[]): string {
  return spreadsheetCsvText(
    VISITOR_CSV_HEADER,
    visitors.map((visitor) => [
      visitor.firstName,
      visitor.lastName,
      visitor.email,
      visitor.phone ?? '',
      formatAtVenue(new Date(visitor.createdAt), 'dateTime'),
      visitor.confirmedAt ? formatAtVenue(new Date(visitor.confirmedAt), 'dateTime') : '',
      VISITOR_STATE_LABELS[visitor.state],
    ]),
  );
}
