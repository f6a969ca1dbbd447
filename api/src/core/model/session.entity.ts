import { defineEntity, p } from '@mikro-orm/core';

/** koa-session's external store. `sess` holds { userId } for signed-in sessions. */
const SessionSchema = defineEntity({
  name: 'Session',
  tableName: 'session',
  properties: {
    sid: p.string().length(255).primary(),
    sess: p.json<Record<string, unknown>>(),
    expire: p.datetime().index(),
  },
});

export class Session extends SessionSchema.class {}
SessionSchema.setClass(Session);
