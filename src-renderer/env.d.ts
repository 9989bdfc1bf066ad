// Ambient declarations for what Vite bundles besides TypeScript (stylesheets). Knows nothing else.
declare module '*.css';
