import type Koa from 'koa';
import type { AuditAction } from '@schlosstreffen/shared';
import { AUDIT_DECLARATION, type AuditDeclaration } from '../http/audited.js';

export interface RouteOf {
  method: string;
  path: string;
}

interface RouterLike {
  stack: Array<{ path: string; methods: string[]; stack: unknown[] }>;
}

/** An app's middleware: a router's (`router`), or one mounted beside the API's routers (`mounted`). */
type AppMiddleware = { router?: RouterLike; mounted?: RouterLike };

/**
 * Every route the app's routers answer, as `METHOD path` ('ALL' for a catch-all), read from the
 * routers themselves: a route added to the code shows up here without anyone listing it.
 */
export function routesOf(app: Koa<never>): RouteOf[] {
  const routes = new Map<string, RouteOf>();
  for (const middleware of app.middleware as AppMiddleware[]) {
    for (const layer of middleware.router?.stack ?? []) {
      const methods = layer.methods.filter((method) => method !== 'HEAD');
      if (!methods.length) continue;
      for (const method of methods.length > 10 ? ['ALL'] : methods) {
        routes.set(`${method} ${layer.path}`, { method, path: layer.path });
      }
    }
  }
  return [...routes.values()];
}

export interface AuditedRouteOf extends RouteOf {
  /** `METHOD path`, as the row's `route` names it. */
  route: string;
  action: AuditAction;
  declaration: AuditDeclaration;
}

/**
 * Every route declared `audited`, with its action, read from the routers (the API's and the queue
 * dashboard's) where the audit is declared: a route marked audited shows up here by itself.
 */
export function auditedRoutesOf(app: Koa<never>): AuditedRouteOf[] {
  const routes = new Map<string, AuditedRouteOf>();
  for (const middleware of app.middleware as AppMiddleware[]) {
    for (const layer of [...(middleware.router?.stack ?? []), ...(middleware.mounted?.stack ?? [])]) {
      const declaration = layer.stack
        .map((fn) => (fn as { [AUDIT_DECLARATION]?: AuditDeclaration })[AUDIT_DECLARATION])
        .find((found) => found !== undefined);
      if (!declaration) continue;
      for (const method of layer.methods.filter((method) => method !== 'HEAD')) {
        const route = `${method} ${layer.path}`;
        routes.set(route, { method, path: layer.path, route, action: declaration.action, declaration });
      }
    }
  }
  return [...routes.values()];
}
