import { LinkTokenSchema } from '@schlosstreffen/shared';
import type { ServerMessage } from '@schlosstreffen/shared/api';
import { useMutation } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef, type ReactNode } from 'react';
import * as v from 'valibot';
import { isApiError } from '../lib/api';
import { Button } from './ui/button';
import { SuccessIcon, WarningIcon } from './ui/icons';
import { PageCard } from './ui/page-card';
import { Spinner } from './ui/spinner';
import { errorText, RETRY_HINT } from './ui/toaster';

const RETRY_TEXT = `Das hat nicht geklappt. ${RETRY_HINT}`;

type LinkActionProps = {
  token: string | undefined;
  intro: ReactNode;
  actionLabel: string;
  pendingLabel: string;
  action: (token: string) => Promise<ServerMessage>;
  /** Shown for a missing or malformed token, and for a rejected one when the server says nothing. */
  invalidText: string;
  /** Under the outcome, e.g. a link to the profile. */
  next?: ReactNode;
  destructive?: boolean;
};

/**
 * The page a mailed link opens (visitor confirm and unsubscribe, email change): it explains what the
 * button does and changes nothing until it is pressed (a POST with the token), so link scanners that
 * open every URL in a mail cannot act for the recipient. Then the server's message, or why not.
 */
export function LinkActionCard({ title, ...props }: LinkActionProps & { title: string }) {
  return (
    <PageCard title={title} closeTo="/" width="md">
      <LinkAction {...props} />
    </PageCard>
  );
}

/** A mailed link's one action inside a card of the page's own: its explanation, button and outcome. */
export function LinkAction({
  token,
  intro,
  actionLabel,
  pendingLabel,
  action,
  invalidText,
  next,
  destructive = false,
}: LinkActionProps) {
  const parsed = v.safeParse(LinkTokenSchema, { token });
  const run = useMutation({ mutationFn: (value: string) => action(value) });
  // A rejected token (400, 404, 410): pressing again would not help.
  const rejected = isApiError(run.error) && run.error.status >= 400 && run.error.status < 500;

  if (run.isSuccess) return <LinkOutcome tone="ok" text={run.data.message} next={next} />;
  if (!parsed.success) return <LinkOutcome tone="error" text={invalidText} />;
  if (rejected) return <LinkOutcome tone="error" text={errorText(run.error) ?? invalidText} />;
  return (
    <div className="flex flex-col gap-6">
      <div className="text-sm leading-relaxed text-ash-300">{intro}</div>
      <Button
        variant={destructive ? 'danger' : 'primary'}
        className="w-full py-3"
        disabled={run.isPending}
        aria-disabled={run.isPending}
        onClick={() => run.mutate(parsed.output.token)}
      >
        {run.isPending ? (
          <>
            <Spinner />
            {pendingLabel}
          </>
        ) : (
          actionLabel
        )}
      </Button>
      {run.isError ? (
        <p role="alert" className="text-sm text-red-300">
          {errorText(run.error) ?? RETRY_TEXT}
        </p>
      ) : null}
    </div>
  );
}

/** What a mailed link's action came to, focused for screen readers, with the way back. */
export function LinkOutcome({ tone, text, next }: { tone: 'ok' | 'error'; text: string; next?: ReactNode }) {
  const message = useRef<HTMLParagraphElement>(null);
  // The button is gone: move focus to the outcome so screen readers read it.
  useEffect(() => message.current?.focus(), []);
  return (
    <div className="flex flex-col items-center gap-5 text-center">
      <span
        aria-hidden="true"
        className={`flex size-14 items-center justify-center rounded-full border ${
          tone === 'ok'
            ? 'border-gold-500/40 bg-gold-500/10 text-gold-300'
            : 'border-red-400/40 bg-red-950/40 text-red-200'
        }`}
      >
        {tone === 'ok' ? <SuccessIcon className="size-7" /> : <WarningIcon className="size-7" />}
      </span>
      <p
        ref={message}
        tabIndex={-1}
        role={tone === 'ok' ? 'status' : 'alert'}
        className="text-parchment focus:outline-none"
      >
        {text}
      </p>
      {next}
      <Link
        to="/"
        className="text-sm font-medium text-gold-300 underline decoration-gold-500/40 underline-offset-4 hover:text-gold-200"
      >
        Zur Startseite
      </Link>
    </div>
  );
}
