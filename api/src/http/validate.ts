import { flattenIssues, MESSAGES } from '@schlosstreffen/shared';
import * as v from 'valibot';
import { badRequest } from './errors.js';

/** Parses input with a shared schema; failures become a 400 with the first German message and every field issue. */
export function validate<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input ?? {});
  if (result.success) return result.output;
  const issues = flattenIssues(result.issues);
  throw badRequest(issues[0]?.message ?? MESSAGES.validationFailed, issues);
}
