import { useForm } from '@tanstack/react-form';
import { LoginSchema } from '@schlosstreffen/shared';
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { startTransition } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { TextField } from './form-field';

/**
 * Text in the fields of a server-rendered form that the app has not seen typed (typed before the
 * app loaded, or while it hydrated) is the form's, and stays in the fields when the form renders
 * again.
 */

type Values = { email: string; password: string };

function LoginForm({ onSubmit }: { onSubmit: (values: Values) => void }) {
  const form = useForm({
    defaultValues: { email: '', password: '' },
    // Validated as a whole on every change: each change renders every field again.
    validators: { onChange: LoginSchema },
    onSubmit: ({ value }) => onSubmit(value),
  });
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void form.handleSubmit();
      }}
    >
      <form.Field name="email">{(field) => <TextField field={field} label="Email" />}</form.Field>
      <form.Field name="password">
        {(field) => <TextField field={field} label="Passwort" type="password" />}
      </form.Field>
      <button type="submit">Anmelden</button>
    </form>
  );
}

const EMAIL = 'lena.weber@example.de';
const PASSWORD = 'sicheresPasswort1';
const nativeValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;

/** The form as the server sends it, in the document, not yet hydrated. */
function serverRendered() {
  const container = document.createElement('div');
  container.innerHTML = renderToString(<LoginForm onSubmit={() => undefined} />);
  document.body.append(container);
  const field = (name: string) => container.querySelector<HTMLInputElement>(`input[name="${name}"]`)!;
  return { container, email: field('email'), password: field('password') };
}

/** Types as the browser does: the value changes, then an input event. */
function type(input: HTMLInputElement, text: string) {
  nativeValue.call(input, text);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
  cleanup();
});

describe('a server-rendered form', () => {
  it('takes over text typed before the app loaded, and keeps it when a later change renders it again', async () => {
    const { container, email, password } = serverRendered();
    // Before the app: the page alone (a password manager fills both fields on load).
    nativeValue.call(email, EMAIL);
    nativeValue.call(password, 'sicheres');
    const sent: Values[] = [];
    await act(async () => {
      root = hydrateRoot(container, <LoginForm onSubmit={(values) => sent.push(values)} />);
    });
    // The app is live: typing on in one field renders the whole form again.
    await act(async () => type(password, PASSWORD));
    expect(email.value).toBe(EMAIL);
    expect(password.value).toBe(PASSWORD);

    await act(async () => fireEvent.submit(container.querySelector('form')!));
    expect(sent).toEqual([{ email: EMAIL, password: PASSWORD }]);
  });

  it('takes over text typed while the app hydrates it', async () => {
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
    try {
      const { container, email, password } = serverRendered();
      nativeValue.call(email, EMAIL);
      const sent: Values[] = [];
      // Hydration as the app starts it: a transition that yields to the browser.
      startTransition(() => {
        root = hydrateRoot(container, <LoginForm onSubmit={(values) => sent.push(values)} />);
      });
      // Typed before React got to the form: the event makes React hydrate at once, then handle it.
      type(password, PASSWORD);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(email.value).toBe(EMAIL);
      expect(password.value).toBe(PASSWORD);

      fireEvent.submit(container.querySelector('form')!);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(sent).toEqual([{ email: EMAIL, password: PASSWORD }]);
    } finally {
      (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
    }
  });

  it('sends what was typed when the form is sent in the moment the app hydrates it', async () => {
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
    try {
      const { container, email, password } = serverRendered();
      nativeValue.call(email, EMAIL);
      nativeValue.call(password, PASSWORD);
      const sent: Values[] = [];
      startTransition(() => {
        root = hydrateRoot(container, <LoginForm onSubmit={(values) => sent.push(values)} />);
      });
      // A press replayed (or made) before React got to the form: it hydrates the form at once.
      container.querySelector('button')!.click();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(sent).toEqual([{ email: EMAIL, password: PASSWORD }]);
    } finally {
      (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
    }
  });

  it('a form the app creates starts as its state says: untouched, no message shown', async () => {
    const { container } = render(<LoginForm onSubmit={() => undefined} />);
    const email = container.querySelector<HTMLInputElement>('input[name="email"]')!;
    expect(email.value).toBe('');
    expect(email.getAttribute('aria-invalid')).toBeNull();
    await act(async () => type(email, 'kein-at-zeichen'));
    expect(email.getAttribute('aria-invalid')).toBe('true');
  });
});
