// The ARIA tab pattern shared by <Tabs> and <CodeGroup>: a tablist before the panels,
// one panel shown at a time, arrow keys move between tabs.

let lists = 0;

export function mountTabList(root: HTMLElement, panels: HTMLElement[], labels: string[]): void {
  const id = `tablist-${lists++}`;
  const list = document.createElement('div');
  list.setAttribute('role', 'tablist');
  const buttons = panels.map((panel, i) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.setAttribute('role', 'tab');
    button.id = `${id}-tab-${i}`;
    button.textContent = labels[i] ?? `${i + 1}`;
    panel.id = `${id}-panel-${i}`;
    panel.setAttribute('role', 'tabpanel');
    panel.setAttribute('aria-labelledby', button.id);
    panel.tabIndex = 0;
    button.setAttribute('aria-controls', panel.id);
    list.append(button);
    return button;
  });
  const select = (index: number) => {
    buttons.forEach((button, i) => {
      button.setAttribute('aria-selected', String(i === index));
      button.tabIndex = i === index ? 0 : -1;
      panels[i]!.hidden = i !== index;
    });
  };
  list.addEventListener('click', (event) => {
    const index = buttons.indexOf((event.target as HTMLElement).closest('button') as HTMLButtonElement);
    if (index >= 0) select(index);
  });
  list.addEventListener('keydown', (event) => {
    const current = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step || current < 0) return;
    const next = (current + step + buttons.length) % buttons.length;
    select(next);
    buttons[next]!.focus();
    event.preventDefault();
  });
  root.prepend(list);
  select(0);
}
