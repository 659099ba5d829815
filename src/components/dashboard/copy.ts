// Copy buttons (Clipboard API): the text goes to the clipboard and a status line says so, or says
// to copy it by hand where the browser refuses (no secure context, permission denied).

/** Copies what `text()` gives (it may fetch it first) and announces the outcome in `status`. */
export async function copyText(text: () => Promise<string | null>, status: HTMLElement, texts: { copied: string; copyFailed: string }): Promise<boolean> {
  try {
    const value = await text();
    if (value === null) return false;
    await navigator.clipboard.writeText(value);
    status.textContent = texts.copied;
    return true;
  } catch {
    status.textContent = texts.copyFailed;
    return false;
  }
}
