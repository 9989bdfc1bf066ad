// React glue for the recent sessions: one list per window, kept in localStorage. Knows nothing of the core.
import { useSyncExternalStore } from 'react';
import { type RecentSession, RecentSessions, type StringStorage } from '../store/recent';

export function browserStorage(): StringStorage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // Storage disabled: the list lives only as long as the page.
  }
}

export const recentSessions = new RecentSessions(browserStorage());

export function useRecent(): readonly RecentSession[] {
  return useSyncExternalStore(recentSessions.subscribe, recentSessions.get);
}
