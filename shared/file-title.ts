// The title a window or tab shows for the host's open board file (files): "name — Ghostboard", with "•" while it
// has unsaved changes; plain "Ghostboard" when no file is open (not hosting). Pure; no Node, no DOM.

export function boardFileTitle(
  file: { readonly name: string; readonly dirty: boolean } | null | undefined,
): string {
  if (file === null || file === undefined) return 'Ghostboard';
  return `${file.dirty ? '• ' : ''}${file.name} — Ghostboard`;
}
