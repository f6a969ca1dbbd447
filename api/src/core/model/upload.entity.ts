import { defineEntity, p } from '@mikro-orm/core';
import { User } from './user.entity.js';

/**
 * An upload the server signed: the browser PUTs it straight to the bucket. The worker renders the
 * clean copies and deletes the object; the record stays a day, when retention deletes the key again
 * (whatever a second PUT stored meanwhile) and the record with it. Never attached, the same.
 * An upload is attached once: `attachedAt` stays set after the worker forgot the media's upload key.
 */
const UploadSchema = defineEntity({
  name: 'Upload',
  tableName: 'upload',
  properties: {
    key: p.string().length(300).primary(),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    contentType: p.string().length(60),
    size: p.integer(),
    createdAt: p.datetime().index(),
    attachedAt: p.datetime().nullable(),
  },
});

export class Upload extends UploadSchema.class {}
UploadSchema.setClass(Upload);
