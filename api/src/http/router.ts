import Router, { type RouterOptions } from '@koa/router';
import type { DefaultState } from 'koa';

/**
 * A router that matches paths in one spelling only: case-sensitive and without a trailing-slash
 * variant. Every router of the app (the API and each of its routers, stored objects, health, the
 * queue dashboard) is made here, so `/api/admin/Vehicles.csv` or `/api/admin/vehicles.csv/` names
 * no route and answers 404.
 */
export function strictRouter<S = DefaultState>(
  options: Omit<RouterOptions, 'sensitive' | 'strict'> = {},
): Router<S> {
  return new Router<S>({ ...options, sensitive: true, strict: true });
}
