import type Router from '@koa/router';
import type { EntityManager } from '@mikro-orm/postgresql';
import { TeamGrantSchema, TEAM_MESSAGES } from '@schlosstreffen/shared';
import type * as Api from '@schlosstreffen/shared/api';
import {
  grantTeamRole,
  listTeam,
  resetTeamSecondFactor,
  revokeTeamRole,
  type TeamActor,
} from '../../core/accounts/team.js';
import { currentUser, requestNow, requireRole, type AppContext, type AppState } from '../../http/context.js';
import { uuidParam, validate } from '../../http/validate.js';
import { presentTeamMember } from './team.presenter.js';
import { strictRouter } from '../../http/router.js';

/** The Team page (admins only): staff accounts, their roles and second factors. */
export function teamRoutes(deps: { em: EntityManager; staffSecondFactor: boolean }): Router<AppState> {
  const { em } = deps;
  const router = strictRouter<AppState>();
  const admin = requireRole('admin');

  const list = async (): Promise<Api.TeamList> => ({
    members: (await listTeam(em)).map(presentTeamMember),
    secondFactorRequired: deps.staffSecondFactor,
  });
  const actor = (ctx: AppContext): TeamActor => ({
    admin: currentUser(ctx),
    ip: ctx.ip,
    at: requestNow(ctx),
  });
  const memberId = (ctx: AppContext) => uuidParam(ctx.params.id, TEAM_MESSAGES.notStaff);

  router.get('/admin/team', admin, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await list();
  });

  router.post('/admin/team', admin, async (ctx) => {
    const input = validate(TeamGrantSchema, ctx.request.body);
    const message = await grantTeamRole(em, input, actor(ctx));
    ctx.body = { ...(await list()), message } satisfies Api.TeamChange;
  });

  router.delete('/admin/team/:id', admin, async (ctx) => {
    const message = await revokeTeamRole(em, memberId(ctx), actor(ctx));
    ctx.body = { ...(await list()), message } satisfies Api.TeamChange;
  });

  router.post('/admin/team/:id/reset-second-factor', admin, async (ctx) => {
    const message = await resetTeamSecondFactor(em, memberId(ctx), actor(ctx));
    ctx.body = { ...(await list()), message } satisfies Api.TeamChange;
  });

  return router;
}
