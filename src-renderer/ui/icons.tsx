// Inline SVG icons (no icon font or CDN: strict CSP). Pure presentation; knows nothing of the store.
import type { ReactElement } from 'react';

const PATHS = {
  select: 'M5 3l6 16 2.2-6.6L20 10z',
  rect: 'M4 6h16v12H4z',
  ellipse: 'M12 5c4.4 0 8 3.1 8 7s-3.6 7-8 7-8-3.1-8-7 3.6-7 8-7z',
  line: 'M5 19L19 5',
  arrow: 'M5 19L19 5M10 5h9v9',
  pen: 'M4 20c3-1 4-4 6-7s4-6 6-6 2 2 1 4-4 3-5 6 1 3 4 3',
  text: 'M5 6V4h14v2M12 4v16M9 20h6',
  note: 'M5 4h14v10l-6 6H5zM13 20v-6h6',
  chat: 'M4 5h16v11H9l-5 4z',
  bandwidth: 'M3 17l5-6 4 4 4-7 5 5M3 21h18',
  share: 'M16 6l-4-4-4 4M12 2v13M5 12v7h14v-7',
  leave: 'M15 4h4v16h-4M10 8l-4 4 4 4M6 12h10',
  plus: 'M12 5v14M5 12h14',
  minus: 'M5 12h14',
  fit: 'M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5',
  close: 'M6 6l12 12M18 6L6 18',
  copy: 'M8 8h12v12H8zM4 16V4h12',
  check: 'M5 12l5 5 9-10',
  trash: 'M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13',
  users:
    'M9 11a4 4 0 100-8 4 4 0 000 8zM2 21c0-4 3-6 7-6s7 2 7 6M16 3a4 4 0 010 8M18 15c2.5.5 4 2.5 4 6',
  send: 'M4 12l16-8-6 16-3-7z',
  front: 'M8 8h12v12H8zM4 4h10v3M4 4v10h3',
  back: 'M4 4h12v12H4zM20 8v12H8v-3',
  download: 'M12 3v12M7 10l5 5 5-5M4 19h16',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, size = 18 }: { name: IconName; size?: number }): ReactElement {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
