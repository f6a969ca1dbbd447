import { flattenIssues, installGermanValidationMessages, MESSAGES } from '@schlosstreffen/shared';
import * as v from 'valibot';
import { invalid, notFound } from '../core/errors.js';

// Every valibot default message the API can answer with is German.
installGermanValidationMessages();

/** Parses input with a shared schema; failures become a 400 with the first German message and every field issue. */
export function validate<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input ?? {});
  if (result.success) return result.output;
  const issues = flattenIssues(result.issues);
  throw invalid(issues[0]?.message ?? MESSAGES.validationFailed, issues);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path id that is no uuid names nothing: 404 with the given message rather than a database error. */
export function uuidParam(value: string | undefined, message: string = MESSAGES.notFound): string {
  if (!value || !UUID.test(value)) throw notFound(message);
  return value.toLowerCase();
}
