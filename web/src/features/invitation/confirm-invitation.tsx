import { useMutation } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { errorText, RETRY_HINT } from '../../components/ui/toaster';
import { api } from '../../lib/api';

interface ConfirmResult {
  status: 'confirmed' | 'already_confirmed';
  message: string;
}

const buttonClass =
  'rounded-full bg-gold-500 px-6 py-3 text-sm font-semibold tracking-wide text-night-950 transition-colors hover:bg-gold-400 disabled:cursor-wait disabled:opacity-70';
const linkClass =
  'rounded-full border border-gold-500/40 px-6 py-2.5 text-sm tracking-wide text-gold-300 transition-colors hover:border-gold-400 hover:bg-gold-500/10';

/**
 * The invitation mail's confirm link lands here. Confirming takes a click (a POST), so link
 * scanners that open every URL in a mail cannot accept an invitation on the owner's behalf.
 */
export function ConfirmInvitation({ token }: { token: string | undefined }) {
  const confirm = useMutation({
    mutationFn: () => api.post<ConfirmResult>('/api/invitations/confirm', { token }),
  });
  const error = confirm.error
    ? (errorText(confirm.error) ?? `Die Bestätigung ist fehlgeschlagen. ${RETRY_HINT}`)
    : undefined;

  return (
    <section className="mx-auto flex w-full max-w-xl flex-1 flex-col justify-center px-6 py-24">
      <div className="rounded-2xl border border-white/10 bg-white/5 p-8 text-center">
        <h1 className="font-display text-3xl text-parchment">Einladung bestätigen</h1>
        {confirm.isSuccess ? (
          <div role="status" className="mt-6 flex flex-col items-center gap-6">
            <p className="text-lg text-parchment">{confirm.data.message}</p>
            <Link to="/" className={linkClass}>
              Zur Startseite
            </Link>
          </div>
        ) : !token ? (
          <p role="alert" className="mt-6 text-parchment/80">
            Der Bestätigungslink ist unvollständig. Bitte öffne den Link aus deiner Einladungs-E-Mail erneut.
          </p>
        ) : (
          <div className="mt-6 flex flex-col items-center gap-6">
            <p className="text-parchment/80">
              Du bist mit deinem Fahrzeug zum Schlosstreffen eingeladen. Bestätige hier deine Teilnahme, damit
              wir deinen Platz fest einplanen.
            </p>
            <button
              type="button"
              className={buttonClass}
              disabled={confirm.isPending}
              onClick={() => confirm.mutate()}
            >
              {confirm.isPending ? 'Wird bestätigt...' : 'Teilnahme bestätigen'}
            </button>
            {error && (
              <p role="alert" className="text-sm text-red-300">
                {error}
              </p>
            )}
          </div>
        )}
      </div>
    </section>
  );
}
