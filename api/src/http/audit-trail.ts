import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuditAction, Role } from '@schlosstreffen/shared';
import type { Middleware } from 'koa';
import { writeAudit } from '../core/audit/audit.js';
import type { AppState } from './context.js';

/** What an entry's target and details are read from, once the route answered. */
export interface AuditedRequest {
  /** The path's parameters, decoded. */
  params: Record<string, string>;
  query: Record<string, unknown>;
  /** The request's JSON body (validated by the route, which answered 2xx). */
  request: Record<string, unknown>;
  /** The answer's body when it is JSON (not a stream or a file). */
  response: Record<string, unknown>;
  state: AppState;
}

export interface AuditedRoute {
  /** `METHOD path` exactly as the router (or bull-board) names it. */
  route: string;
  action: AuditAction;
  /** What it acted on: an edition year, a vehicle id, a queue name. */
  target?: (request: AuditedRequest) => unknown;
  /** Filters and counts: never copies of personal data (a search text is recorded as used, not as typed). */
  details?: (request: AuditedRequest) => Record<string, unknown>;
}

const edition = ({ state }: AuditedRequest) => state.editionYear;
const param =
  (name: string) =>
  ({ params }: AuditedRequest) =>
    params[name];
/** Which of the request's fields an admin set (the values are settings, but the names suffice). */
const fieldsSet = ({ request }: AuditedRequest) => ({ fields: Object.keys(request).sort() });
const moment = ({ request }: AuditedRequest) => ({ at: typeof request.at === 'string' ? request.at : null });
const queueAction = ({ params }: AuditedRequest) => ({
  ...(params.queueStatus ? { state: params.queueStatus } : {}),
  ...(params.jobId ? { job: params.jobId } : {}),
});

/**
 * Every audited route: each staff action of the API (and of the queue dashboard) that reads
 * personal data in bulk or changes something outside the status log. One answer with a 2xx status
 * to one of them is one audit row (who, when, what, from which address); `auditTrail` applies the
 * list and its test sends every entry. Staff actions that are no HTTP request of their own (role
 * changes, staff sign-ins) call `recordAudit` where they happen.
 *
 * Left out on purpose: the staff lists used for reviewing (`GET /api/admin/vehicles`, the media
 * library, the waitlist, the gate's list), read page by page all day, whose bulk forms (CSV, ZIP)
 * are audited; an applicant's record counts as opened once per detail dialog, when it loads the
 * earlier applications beside the contact data (so `GET /api/admin/vehicles/:id`, the same
 * application as one row of the staff list, is not audited on its own); status changes (bulk ones
 * included) and review scores are in the status log; the retention overview holds no
 * personal data and retention runs on its own schedule.
 */
export const AUDITED_ROUTES: AuditedRoute[] = [
  // Bulk reads of personal data.
  {
    route: 'GET /api/admin/vehicles.csv',
    action: 'vehicles.export_csv',
    target: edition,
    details: ({ query }) => ({
      status: typeof query.status === 'string' ? query.status : 'all',
      search: typeof query.q === 'string' && query.q.trim() !== '',
    }),
  },
  { route: 'GET /api/admin/vehicles/:id/earlier', action: 'vehicles.view_account', target: param('id') },
  // The preview of a bulk change names every recipient (name and address) of up to 500 mails.
  { route: 'POST /api/admin/vehicles/bulk-status/preview', action: 'vehicles.bulk_preview', target: edition },
  { route: 'GET /api/admin/media.zip', action: 'media.export_zip', target: edition },
  {
    route: 'GET /api/admin/visitors',
    action: 'visitors.list',
    target: edition,
    details: ({ response }) => ({ rows: (response.counts as { total?: number } | undefined)?.total ?? null }),
  },
  { route: 'GET /api/admin/visitors.csv', action: 'visitors.export_csv', target: edition },
  {
    route: 'GET /api/admin/audit',
    action: 'audit.read',
    // The filters used (a person by account id), and how many rows the page showed.
    details: ({ query, response }) => ({
      ...Object.fromEntries(
        Object.entries({ person: 'person', action: 'action', from: 'since', to: 'until', before: 'page' })
          .filter(([key]) => typeof query[key] === 'string' && query[key] !== '')
          .map(([key, name]) => [name, query[key]]),
      ),
      rows: Array.isArray(response.entries) ? response.entries.length : null,
    }),
  },

  // Changes outside the status log.
  {
    route: 'PUT /api/admin/waitlist/settings',
    action: 'waitlist.settings',
    details: ({ request }) => ({ autoMoveUp: request.autoMoveUp }),
  },
  {
    route: 'POST /api/admin/visitor-updates',
    action: 'visitor_updates.create',
    target: ({ response }) => response.id,
  },
  { route: 'PATCH /api/admin/visitor-updates/:id', action: 'visitor_updates.update', target: param('id') },
  // Which mail (its email log row) is in the details; the subject is the application.
  {
    route: 'POST /api/admin/vehicles/:id/emails/:mailId/resend',
    action: 'mails.resend',
    target: param('id'),
    details: ({ params }) => ({ mail: params.mailId }),
  },
  {
    route: 'POST /api/admin/visitor-updates/:id/send',
    action: 'visitor_updates.send',
    target: param('id'),
    details: ({ response }) => ({ recipients: response.total ?? null }),
  },
  {
    route: 'POST /api/admin/editions',
    action: 'editions.create',
    target: ({ request }) => request.year,
    details: fieldsSet,
  },
  {
    route: 'PATCH /api/admin/editions/:year',
    action: 'editions.update',
    target: param('year'),
    details: fieldsSet,
  },
  {
    route: 'POST /api/admin/editions/:year/open',
    action: 'editions.open',
    target: param('year'),
    details: moment,
  },
  {
    route: 'POST /api/admin/editions/:year/current',
    action: 'editions.current',
    target: param('year'),
    details: moment,
  },
  {
    route: 'POST /api/admin/quartett-sets',
    action: 'quartett.export',
    target: edition,
    details: ({ response }) => ({ set: response.id ?? null, version: response.version ?? null }),
  },
  { route: 'POST /api/admin/quartett-sets/:id/release', action: 'quartett.release', target: param('id') },
  {
    route: 'PUT /api/admin/reviews/settings',
    action: 'review.settings',
    target: edition,
    details: ({ request }) => ({
      reviewersPerApplication: request.reviewersPerApplication,
      categories: Array.isArray(request.categories) ? request.categories.length : null,
    }),
  },
  {
    route: 'PUT /api/admin/texts',
    action: 'texts.update',
    target: edition,
    // Which parts were set, and which went back to the default text (the texts are public anyway).
    details: ({ request }) => ({
      set: Object.keys(request)
        .filter((part) => request[part] !== null)
        .sort(),
      reset: Object.keys(request)
        .filter((part) => request[part] === null)
        .sort(),
    }),
  },
  {
    route: 'PUT /api/admin/mail-templates/:mail',
    action: 'mail-template.update',
    target: edition,
    details: ({ request, response }) => ({
      mail: typeof response.key === 'string' ? response.key : null,
      version: response.version ?? null,
      from: request.baseVersion ?? null,
    }),
  },
  {
    route: 'POST /api/admin/mail-templates/:mail/restore',
    action: 'mail-template.restore',
    target: edition,
    details: ({ response }) => ({ mail: response.key ?? null, version: response.version ?? null }),
  },
  {
    route: 'POST /api/admin/vehicles/:id/assignments',
    action: 'review.assignment',
    target: param('id'),
    details: ({ request }) => ({ from: request.from, to: request.to }),
  },
  // A reviewer's own conflict of interest changes who reviews what; the person it names (an
  // address) stays out of the log.
  { route: 'POST /api/admin/reviews/conflicts', action: 'review.conflict_declare' },
  {
    route: 'DELETE /api/admin/reviews/conflicts/:id',
    action: 'review.conflict_withdraw',
    target: param('id'),
  },

  // The queue dashboard (bull-board): the only changes it lets through (retry and clean of failed or
  // completed jobs); pausing, emptying and the like are refused before they reach it.
  {
    route: 'PUT /admin/queues/api/queues/:queueName/retry/:queueStatus',
    action: 'queues.retry',
    target: param('queueName'),
    details: queueAction,
  },
  {
    route: 'PUT /admin/queues/api/queues/:queueName/clean/:queueStatus',
    action: 'queues.clean',
    target: param('queueName'),
    details: queueAction,
  },
  {
    route: 'PUT /admin/queues/api/queues/:queueName/:jobId/retry',
    action: 'queues.retry',
    target: param('queueName'),
    details: queueAction,
  },
  {
    route: 'PUT /admin/queues/api/queues/:queueName/:jobId/clean',
    action: 'queues.clean',
    target: param('queueName'),
    details: queueAction,
  },
];

interface CompiledRoute {
  entry: AuditedRoute;
  method: string;
  pattern: RegExp;
  names: string[];
}

/** `METHOD /a/:b/c.csv` as a method and an anchored pattern with one group per parameter. */
function compile(entry: AuditedRoute): CompiledRoute {
  const [method, path] = entry.route.split(' ') as [string, string];
  const names: string[] = [];
  const source = path
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(segment.slice(1));
      return '([^/]+)';
    })
    .join('/');
  return { entry, method, pattern: new RegExp(`^${source}/?$`), names };
}

/** A path segment as the routers read it (a malformed escape stays as it is). */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The entry a request falls under, with its parameters; undefined for any other request. */
function auditedRouteOf(
  routes: CompiledRoute[],
  method: string,
  path: string,
): { entry: AuditedRoute; params: Record<string, string> } | undefined {
  for (const route of routes) {
    if (route.method !== method) continue;
    const match = route.pattern.exec(path);
    if (!match) continue;
    const params = Object.fromEntries(
      route.names.map((name, index) => [name, decodeSegment(match[index + 1]!)]),
    );
    return { entry: route.entry, params };
  }
  return undefined;
}

const plainObject = (value: unknown): Record<string, unknown> =>
  value !== null &&
  typeof value === 'object' &&
  !Array.isArray(value) &&
  Object.getPrototypeOf(value) === Object.prototype
    ? (value as Record<string, unknown>)
    : {};

const text = (value: unknown): string | null =>
  value === undefined || value === null || value === '' ? null : String(value).slice(0, 200);

/**
 * Writes one audit row for each answer with a 2xx status to an audited route, by a signed-in
 * account, with the client's address (`ctx.ip`, which honours `TRUST_PROXY`). It runs once the
 * route has answered (for a download: once the answer starts); when the row cannot be written, the
 * request fails, so nothing audited is served unrecorded.
 */
export function auditTrail(em: EntityManager, routes: AuditedRoute[] = AUDITED_ROUTES): Middleware<AppState> {
  const compiled = routes.map(compile);
  return async (ctx, next) => {
    await next();
    if (ctx.status < 200 || ctx.status >= 300) return;
    const user = ctx.state.user;
    if (!user) return;
    const matched = auditedRouteOf(compiled, ctx.method, ctx.path);
    if (!matched) return;
    const request: AuditedRequest = {
      params: matched.params,
      query: ctx.query,
      request: plainObject((ctx.request as { body?: unknown }).body),
      response: plainObject(ctx.body),
      state: ctx.state,
    };
    await writeAudit(em, {
      actorId: user.id,
      actorRole: user.role as Role,
      action: matched.entry.action,
      target: text(matched.entry.target?.(request)),
      details: matched.entry.details?.(request) ?? {},
      ip: ctx.ip || null,
    });
  };
}
