// What the WebSub hub's services need besides the store and the clock.
import type { Actor } from "../../domain/access.js";
import type { ServiceContext } from "../context.js";

/** A feed rendered through the site's own request path, as one caller sees it. */
export interface RenderedFeed {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

/**
 * Renders `target` (path and query under the base) as `actor` would receive it: the same handlers,
 * authorization and privacy rules as the caller's own request, never a copy of them.
 */
export type RenderFeed = (target: string, actor: Actor) => Promise<RenderedFeed>;

/** The hub's context. */
export interface WebSubContext extends ServiceContext {
  readonly baseUrl: () => string;
  readonly render: RenderFeed;
  readonly config: {
    /** `--webhook-allow-private`: callbacks on private addresses (tests, closed networks). */
    readonly webhookAllowPrivate: boolean;
  };
}

/** The address of the hub. */
export function hubUrl(baseUrl: string): string {
  return `${baseUrl}/websub`;
}

/** True when the rendered answer is a feed that may be pushed. */
export function isFeed(rendered: RenderedFeed): boolean {
  return rendered.status === 200 && rendered.contentType.startsWith("application/atom+xml");
}

/** True when the caller may no longer read the topic: the subscription ends. */
export function accessEnded(rendered: RenderedFeed): boolean {
  return rendered.status === 401 || rendered.status === 403 || rendered.status === 404 || rendered.status === 410;
}
