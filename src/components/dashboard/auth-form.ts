// Sign-up and sign-in forms (docs/dashboard.md#endpoints): the backend's Credentials schema checks them first; a
// wrong email or password is one sentence whichever it was, an email already taken is said beside
// the email, too many attempts say when to try again.
import { Credentials } from '../../dashboard/schemas.ts';
import { api, fetchSession } from './api.ts';
import type { DashboardTexts } from './client-texts.ts';
import { part } from './dom.ts';
import { DashboardForm } from './form.ts';
import { cameForSignIn } from './next-url.ts';
import { afterSignIn, dashboardPage, markReady, type DashboardPage } from './page.ts';

type Texts = Pick<DashboardTexts, 'errors' | 'auth'>;

export function mountAuthForms(): void {
  const page = dashboardPage<Texts>();
  for (const form of document.querySelectorAll<HTMLFormElement>('form[data-auth-form]'))
    mountAuthForm(form, form.dataset.authForm === 'sign-up' ? 'sign-up' : 'sign-in', page);
  markReady(page);
}

function mountAuthForm(element: HTMLFormElement, mode: 'sign-up' | 'sign-in', page: DashboardPage<Texts>): void {
  const { auth, errors, common } = page.texts;
  const form = new DashboardForm(element);
  // Whoever was sent here to sign in hears why, and comes back after; the sign-in link keeps that.
  if (cameForSignIn(location.search)) {
    part(element, 'sign-in-first').hidden = mode !== 'sign-in';
    part<HTMLAnchorElement>(element, 'other-auth').search = location.search;
  }
  // Someone already signed in has nothing to do on the sign-in and sign-up pages.
  if (page.root.dataset.dashboard !== 'start') {
    void fetchSession().then((session) => {
      if (session.ok && session.body.account !== null) afterSignIn(page);
    });
  }

  form.onSubmit(async () => {
    const input = { email: form.value('email'), password: form.value('password') };
    if (!form.check(Credentials, input, { email: errors.email, password: errors.password })) return;
    form.busy(mode === 'sign-up' ? auth.signingUp : auth.signingIn);
    const result = await api<unknown>('POST', `/api/dashboard/${mode}`, Credentials.parse(input));
    form.busy(null);
    if (result.ok) return afterSignIn(page);
    if (mode === 'sign-up' && result.status === 409) return form.showFieldErrors([{ field: 'email', message: auth.emailTaken }]);
    if (mode === 'sign-in' && result.status === 401) return form.showError(auth.wrongCredentials);
    form.showFailure(result, common);
  });
}
