import type Koa from 'koa';

export interface RouteOf {
  method: string;
  path: string;
}

interface RouterLike {
  stack: Array<{ path: string; methods: string[] }>;
}

/**
 * Every route the app's routers answer, as `METHOD path` ('ALL' for a catch-all), read from the
 * routers themselves: a route added to the code shows up here without anyone listing it.
 */
export function routesOf(app: Koa<never>): RouteOf[] {
  const routes = new Map<string, RouteOf>();
  for (const middleware of app.middleware as Array<{ router?: RouterLike }>) {
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
