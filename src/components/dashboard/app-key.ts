// An app's key on its page: hidden until asked (POST …/key: never cached, CSRF-checked), copied with
// one click, and written into each endpoint's examples once shown.
import type { DashboardTexts } from './client-texts.ts';
import { mountCopyButtons } from './code-blocks.ts';
import { copyText } from './copy.ts';
import { el, part } from './dom.ts';
import { failureText } from './form.ts';
import { call, type DashboardPage } from './page.ts';
import { curlSnippet, keyedUrl, viemSnippet } from './snippets.ts';
import { webSocketUrlOf } from '../../site/urls.ts';
import { fill } from './template.ts';
import type { App, Network } from './types.ts';

type Texts = Pick<DashboardTexts, 'app'>;

export interface KeyView {
  /** The app changed (loaded, saved, rotated): its endpoints are drawn again. */
  showApp(app: App): void;
  /** A key just handed out (rotation): shown at once. */
  showKey(key: string): void;
}

export function mountKey(page: DashboardPage<Texts>, appId: string, networks: readonly Network[]): KeyView {
  const texts = page.texts.app;
  const keyText = part(page.root, 'key');
  const toggle = part<HTMLButtonElement>(page.root, 'toggle-key');
  const status = part(page.root, 'key-status');
  const endpoints = part(page.root, 'endpoints');
  const choice = part<HTMLSelectElement>(page.root, 'endpoint-choice');
  let key: string | null = null;
  let shown = false;
  let app: App | null = null;

  const draw = () => {
    keyText.textContent = shown && key !== null ? key : texts.keyHidden;
    toggle.textContent = shown ? texts.hideKey : texts.showKey;
    toggle.setAttribute('aria-expanded', String(shown));
    if (app) drawEndpoint(endpoints, app.endpoints.find((endpoint) => endpoint.network === choice.value) ?? null, shown ? key : null, page.texts);
  };
  const fetchKey = async (): Promise<string | null> => {
    if (key !== null) return key;
    const result = await call<{ key: string }>(page, 'POST', `/api/dashboard/apps/${encodeURIComponent(appId)}/key`);
    if (!result.ok) {
      status.textContent = failureText(result, page.texts.common);
      return null;
    }
    return (key = result.body.key);
  };

  toggle.addEventListener('click', async () => {
    status.textContent = '';
    if (!shown && (await fetchKey()) === null) return;
    shown = !shown;
    draw();
  });
  part(page.root, 'copy-key').addEventListener('click', () => void copyText(fetchKey, status, page.texts.common));
  mountCopyButtons(endpoints, page.texts.common);
  choice.addEventListener('change', draw);

  return {
    showApp(next) {
      app = next;
      // The network chosen before, else the page's preferred one, else the first.
      const chosen = choice.value || page.root.dataset.preferredNetwork;
      const name = (id: string) => networks.find((network) => network.id === id)?.name ?? id;
      choice.replaceChildren(...next.endpoints.map(({ network }) => el('option', { value: network, selected: network === chosen }, name(network))));
      draw();
    },
    showKey(next) {
      key = next;
      shown = true;
      draw();
    },
  };
}

/** The chosen network's `{node_url}/v2/<key>`, its WebSocket form, and the examples holding it. */
function drawEndpoint(
  container: HTMLElement,
  endpoint: App['endpoints'][number] | null,
  key: string | null,
  texts: Texts & Pick<DashboardTexts, 'common'>,
): void {
  if (endpoint === null) {
    container.replaceChildren();
    return;
  }
  const url = keyedUrl(endpoint.url, key);
  const example = (tool: string, code: string) => {
    const id = `example-${tool}`;
    return [
      el('p', {}, fill(texts.app.withTool, { tool })),
      el(
        'div',
        { class: 'code-block' },
        el('pre', {}, el('code', { id, 'data-code': true }, code)),
        el(
          'div',
          { class: 'copy-row' },
          el('button', { type: 'button', class: 'secondary', 'data-copy': id }, texts.common.copy),
          el('span', { class: 'copy-status', role: 'status', 'data-copy-status': true }),
        ),
      ),
    ];
  };
  container.replaceChildren(
    el('p', {}, el('code', { class: 'mono', 'data-endpoint-url': true }, url)),
    el('p', {}, `${texts.app.webSocket} `, el('code', { class: 'mono', 'data-endpoint-websocket-url': true }, webSocketUrlOf(url))),
    ...example('curl', curlSnippet(url)),
    ...example('viem', viemSnippet(url)),
  );
}
