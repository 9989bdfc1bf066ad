// The hardening that lives in configuration: every CSP the app serves (both shells, so it lives beside neither),
// and the fuses the packaged binary gets.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ELECTRON_CSP } from '../src-main/electron/security';
import { WEB_CSP } from '../src-main/web/server';

const ROOT = join(import.meta.dirname, '..');

function directives(csp: string): Map<string, string> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim())
      .filter((d) => d !== '')
      .map((d) => {
        const [name = '', ...values] = d.split(/\s+/);
        return [name, values.join(' ')];
      }),
  );
}

/** The `key: value` lines of one top-level block of a YAML file (all this config needs; no YAML library). */
function yamlBlock(text: string, key: string): Map<string, string> {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l === `${key}:`);
  const out = new Map<string, string>();
  if (start < 0) return out;
  for (const line of lines.slice(start + 1)) {
    const m = /^ {2}([A-Za-z]+):\s*(\S+)\s*$/.exec(line);
    if (m === null) {
      if (/^\S/.test(line)) break; // the next top-level key
      continue;
    }
    out.set(m[1] ?? '', m[2] ?? '');
  }
  return out;
}

describe('content security policies', () => {
  const metaCsp = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(
    readFileSync(join(ROOT, 'src-renderer', 'index.html'), 'utf8'),
  )?.[1];

  it.each([
    ['Electron', ELECTRON_CSP],
    ['web host', WEB_CSP],
    ['page meta', metaCsp ?? ''],
  ])('%s: no base or form redirection, no plugins, scripts only from the app', (_name, csp) => {
    const d = directives(csp);
    expect(d.get('base-uri')).toBe("'none'");
    expect(d.get('form-action')).toBe("'none'");
    expect(d.get('object-src')).toBe("'none'");
    expect(d.get('script-src')).toBe("'self'");
    expect(d.get('default-src')).toBe("'self'");
  });

  it('served policies forbid framing (a meta policy cannot)', () => {
    expect(directives(ELECTRON_CSP).get('frame-ancestors')).toBe("'none'");
    expect(directives(WEB_CSP).get('frame-ancestors')).toBe("'none'");
  });
});

describe('packaging', () => {
  it('flips the fuses: no run-as-node, no NODE_OPTIONS, no inspect, asar only and checked', () => {
    const fuses = yamlBlock(
      readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8'),
      'electronFuses',
    );
    expect(Object.fromEntries(fuses)).toEqual({
      runAsNode: 'false',
      enableNodeOptionsEnvironmentVariable: 'false',
      enableNodeCliInspectArguments: 'false',
      enableEmbeddedAsarIntegrityValidation: 'true',
      onlyLoadAppFromAsar: 'true',
      enableCookieEncryption: 'true',
      grantFileProtocolExtraPrivileges: 'false',
    });
  });
});
