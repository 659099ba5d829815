// An app's settings in a form (AppForm.astro): the networks to choose from, and what the form holds as the API's input.
import type { DashboardTexts } from './client-texts.ts';
import { el } from './dom.ts';
import { linesOf } from './field-errors.ts';
import { DashboardForm } from './form.ts';
import type { App, Network } from './types.ts';

/** An app form by its id (AppForm.astro). */
export function formById(id: 'create-app' | 'app-settings'): DashboardForm {
  return new DashboardForm(document.getElementById(id) as HTMLFormElement);
}

/** One checkbox per network, checked as `checked` says. */
export function showNetworkOptions(form: DashboardForm, networks: readonly Network[], checked: readonly string[]): void {
  const container = form.form.querySelector<HTMLElement>('[data-options="allowedNetworks"]')!;
  const prefix = `${form.form.id}-network`;
  container.replaceChildren(
    ...networks.map((network) =>
      el(
        'label',
        { for: `${prefix}-${network.id}` },
        el('input', { type: 'checkbox', id: `${prefix}-${network.id}`, name: 'allowedNetworks', value: network.id, checked: checked.includes(network.id) }),
        network.name,
      ),
    ),
  );
}

/** The form's name, networks and domains, as POST and PATCH take them. */
export function appInput(form: DashboardForm): Pick<App, 'name' | 'allowedNetworks' | 'allowedDomains'> {
  return { name: form.value('name'), allowedNetworks: form.checked('allowedNetworks'), allowedDomains: linesOf(form.value('allowedDomains')) };
}

/** The form shows the app as it is. */
export function fillAppFields(form: DashboardForm, app: App, networks: readonly Network[]): void {
  (form.form.elements.namedItem('name') as HTMLInputElement).value = app.name;
  (form.form.elements.namedItem('allowedDomains') as HTMLTextAreaElement).value = app.allowedDomains.join('\n');
  showNetworkOptions(form, networks, app.allowedNetworks);
}

/** The check's words for each field of an app. */
export function appFieldMessages(errors: DashboardTexts['errors']): Record<string, string> {
  return { name: errors.name, allowedNetworks: errors.allowedNetworks, allowedDomains: errors.allowedDomains };
}
