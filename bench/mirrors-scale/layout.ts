// Where each user of the mirrors-scale bench works: users gathered in clusters of about 25 across a large board
// (one cluster per 5,000 units), each cluster mixing users of every mirror, each user's view holding its cluster.
// Pure; knows nothing of sessions or mirrors.

/** Users per cluster (at most): each view then holds a few dozen pointers. */
export const CLUSTER_SIZE = 25;
/** Between cluster centres: far past one view and its margin, so a view holds one cluster. */
const CLUSTER_SPACING = 5000;
/** Between homes in a cluster (a 5 x 5 grid). */
const HOME_SPACING = 250;
const ROW = 5;
/** A view of 1,600 x 1,000 board units, a laptop screen at 1:1 zoom. */
const VIEW_W = 1600;
const VIEW_H = 1000;

export interface Layout {
  readonly users: number;
  readonly clusters: number;
}

export function layout(users: number): Layout {
  return { users, clusters: Math.max(1, Math.ceil(users / CLUSTER_SIZE)) };
}

/** User u's cluster: consecutive users (one mirror's) go to different clusters, so each cluster mixes mirrors. */
export function clusterOf(l: Layout, u: number): number {
  return u % l.clusters;
}

function centre(l: Layout, c: number): { x: number; y: number } {
  const columns = Math.ceil(Math.sqrt(l.clusters));
  return { x: (c % columns) * CLUSTER_SPACING, y: Math.floor(c / columns) * CLUSTER_SPACING };
}

/** Where user u's pointer circles. */
export function homeOf(l: Layout, u: number): { x: number; y: number } {
  const c = centre(l, clusterOf(l, u));
  const k = Math.floor(u / l.clusters);
  const half = ((ROW - 1) * HOME_SPACING) / 2;
  return {
    x: c.x + (k % ROW) * HOME_SPACING - half,
    y: c.y + Math.floor(k / ROW) * HOME_SPACING - half,
  };
}

/** What user u looks at: its cluster, centred. */
export function viewOf(l: Layout, u: number): { x: number; y: number; w: number; h: number } {
  const c = centre(l, clusterOf(l, u));
  return { x: c.x - VIEW_W / 2, y: c.y - VIEW_H / 2, w: VIEW_W, h: VIEW_H };
}

/** How many users share u's cluster (u included). */
export function clusterSizeOf(l: Layout, u: number): number {
  const c = clusterOf(l, u);
  return Math.floor((l.users - 1 - c) / l.clusters) + 1;
}
