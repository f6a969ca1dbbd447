import { PRIVACY_MESSAGES } from '@schlosstreffen/shared';
import type { ServerMessage } from '@schlosstreffen/shared/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button } from '../../components/ui/button';
import { notify } from '../../components/ui/toaster';
import { api } from '../../lib/api';
import { currentUserQueryOptions, useCurrentUser } from '../../lib/current-user';

/**
 * For a signed-in account whose address is not confirmed yet: what is waiting on the link, a new
 * link on request, and a check once the link was opened elsewhere. Nothing when confirmed.
 */
export function EmailConfirmNotice({ className = '' }: { className?: string }) {
  const { data: user } = useCurrentUser();
  const queryClient = useQueryClient();
  const resend = useMutation({
    mutationFn: () => api.post<ServerMessage>('/api/auth/resend-confirmation', {}),
    onSuccess: (answer) => notify.success('Link versendet', answer.message),
    onError: (error) => notify.error('Senden fehlgeschlagen', error, 'Bitte versuche es später erneut.'),
  });
  const check = useMutation({
    mutationFn: () => queryClient.fetchQuery({ ...currentUserQueryOptions, staleTime: 0 }),
    onSuccess: (fresh) => {
      if (fresh?.emailVerified) notify.success('E-Mail-Adresse bestätigt', PRIVACY_MESSAGES.emailConfirmed);
      else
        notify.error(
          'Noch nicht bestätigt',
          'Öffne zuerst den Link in der E-Mail, die wir dir geschickt haben.',
        );
    },
  });
  if (!user || user.emailVerified) return null;
  return (
    <div
      role="status"
      data-testid="email-confirm-notice"
      className={`rounded-xl border border-gold-500/40 bg-gold-500/10 px-4 py-4 text-sm ${className}`}
    >
      <p className="font-semibold text-parchment">Bitte bestätige deine E-Mail-Adresse</p>
      <p className="mt-1 text-ash-300">
        Wir haben dir einen Link an <span className="text-parchment">{user.email}</span> geschickt. Erst wenn
        du ihn öffnest, kannst du eine Bewerbung einreichen; Entwürfe kannst du schon jetzt speichern.
      </p>
      <div className="mt-3 flex flex-wrap gap-3">
        <Button variant="secondary" disabled={resend.isPending} onClick={() => resend.mutate()}>
          {resend.isPending ? 'Wird gesendet...' : 'Link erneut senden'}
        </Button>
        <Button
          variant="ghost"
          className="border border-white/10"
          disabled={check.isPending}
          onClick={() => check.mutate()}
        >
          {check.isPending ? 'Wird geprüft...' : 'Ich habe bestätigt'}
        </Button>
      </div>
    </div>
  );
}
