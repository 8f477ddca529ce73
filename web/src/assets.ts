// Model images need the Authorization header (the asset routes take no other credential),
// so an <img src> cannot load them: each is fetched with the token and shown through a
// blob: URL, fetched once per URL and released when the element goes.
import type { Session } from './api.js';

export class AssetCache {
  private readonly urls = new Map<string, string | null>();

  constructor(private readonly loaded: () => void) {}

  /** Starts loading every image of `urls` not loaded yet. */
  want(urls: string[], session: Session): void {
    for (const url of urls) {
      if (this.urls.has(url) || /^https?:\/\//.test(url)) continue;
      this.urls.set(url, null);
      void this.load(url, session);
    }
  }

  /** What an <img> may show for `url`: the blob URL once loaded, an absolute https URL as it is. */
  src(url: string): string | undefined {
    if (/^https?:\/\//.test(url)) return url;
    return this.urls.get(url) ?? undefined;
  }

  clear(): void {
    for (const blob of this.urls.values()) if (blob) URL.revokeObjectURL(blob);
    this.urls.clear();
  }

  private async load(url: string, session: Session): Promise<void> {
    try {
      const res = await fetch(`${session.baseUrl}${url}`, {
        headers: { Authorization: await session.authorization() },
      });
      if (!res.ok) return;
      this.urls.set(url, URL.createObjectURL(await res.blob()));
      this.loaded();
    } catch {
      // An image that cannot be loaded is left out; the configuration does not depend on it.
    }
  }
}
