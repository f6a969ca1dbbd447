import { randomUUID } from 'node:crypto';
import { p } from '@mikro-orm/core';

/** Column helpers shared by the entities. */
export const uuidPk = () =>
  p
    .uuid()
    .primary()
    .onCreate(() => randomUUID());
export const createdAt = () => p.datetime().onCreate(() => new Date());
export const updatedAt = () =>
  p
    .datetime()
    .onCreate(() => new Date())
    .onUpdate(() => new Date());
