// The Ghostboard mark (inline SVG). Pure presentation.
import type { ReactElement } from 'react';

export function Logo({ size = 40 }: { size?: number }): ReactElement {
  return (
    <svg width={size} height={size} viewBox="0 0 40 40" aria-hidden="true">
      <rect width="40" height="40" rx="11" fill="#4f46e5" />
      <path d="M12 30V18a8 8 0 0116 0v12l-3-2.5-2.5 2.5-2.5-2.5-2.5 2.5-2.5-2.5z" fill="#fff" />
      <circle cx="17" cy="19" r="1.8" fill="#4f46e5" />
      <circle cx="23" cy="19" r="1.8" fill="#4f46e5" />
    </svg>
  );
}
