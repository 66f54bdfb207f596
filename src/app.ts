import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import compress from "@fastify/compress";
import Fastify, { type FastifyInstance } from "fastify";
import fastifyMultipart from "@fastify/multipart";
import { bearerScheme, createAuthenticator, oauthScheme } from "./auth/authenticate.js";
import type { BlobStore } from "./blobs/blob-store.js";
import type { Clock } from "./clock.js";
import type { Config } from "./config/config.js";
import { LIMITS } from "./domain/limits.js";
import { NotFoundError } from "./domain/errors.js";
import { registerFeedCaching } from "./http/caching.js";

import type { Context } from "./context.js";
import { COMPRESS_THRESHOLD_BYTES, type FeedCache } from "./http/feed-cache.js";

import { registerBoard } from "./http/endpoints/board/board.js";
import { registerComment } from "./http/endpoints/comment/comment.js";
import { registerFileDownload } from "./http/endpoints/file-download/file-download.js";
import { registerGood } from "./http/endpoints/good/good.js";
import { registerGoodNotification } from "./http/endpoints/good-notification/good-notification.js";
import { registerNotification } from "./http/endpoints/notification/notification.js";
import { registerStar } from "./http/endpoints/star/star.js";
import { registerFolderList, registerGroups } from "./http/endpoints/group/group.js";
import { registerGwCabinet } from "./http/endpoints/gw-cabinet/gw-cabinet.js";
import { registerGwMemberList } from "./http/endpoints/gw-member-list/gw-member-list.js";
import { registerGwTask } from "./http/endpoints/gw-task/gw-task.js";
import { registerTask } from "./http/endpoints/task/task.js";
import { registerGwSchedule, registerGwScheduleFolder } from "./http/endpoints/gw-schedule/gw-schedule.js";
import { registerSchedule } from "./http/endpoints/schedule/schedule.js";
import { registerSearch } from "./http/endpoints/search/search.js";
import { registerMpChat } from "./http/endpoints/mp-chat/mp-chat.js";
import { registerMpChatPush } from "./http/endpoints/mp-chat-push/mp-chat-push.js";
import { Admission } from "./http-kit/admission.js";
import { clientAddressResolver } from "./http/client-address.js";
import { errorHandler } from "./http/errors.js";
import { registerGuards, serverOptions } from "./http/guards.js";
import { registerHealth } from "./http/health.js";
import { registerMetrics } from "./http/metrics.js";
import { registerRateLimits } from "./http/rate-limit.js";
import { registerOAuthCredentials } from "./http/oauth/credentials.js";
import type { Store } from "./store/store.js";
import { sendPageNotFound, wantsPage } from "./web/errors.js";
import { registerOAuthPages } from "./web/pages/oauth.js";
import { registerWeb } from "./web/routes.js";
import { sessionActorOf } from "./web/session.js";
import { registerStream } from "./http/endpoints/stream/stream.js";
import { LiveHub } from "./services/live/live-hub.js";
import { registerIcon } from "./http/endpoints/icon/icon.js";
import { registerMpAddress } from "./http/endpoints/mp-address/mp-address.js";
import { registerIcal } from "./http/endpoints/ical/ical.js";
import { registerHooks } from "./http/endpoints/hooks/hooks.js";
import { registerWebSub } from "./http/endpoints/websub/websub.js";
import { registerWebSubRender } from "./http/websub-render.js";
import { WebSubHub } from "./services/websub/hub.js";
import { wakingOnWebSub } from "./services/websub/wake.js";
import { redactUrl } from "./http-kit/log-url.js";
import { MailSender } from "./services/mail/sender.js";
import { AuditPruner } from "./services/audit/retention.js";
import { savedRelayRoute } from "./services/mail/relay-route.js";
import { wakingOnMail } from "./services/mail/wake.js";
import type { InboundMail } from "./smtp/inbound.js";
import { NotificationMailer } from "./services/mail-notify/mailer.js";
import { WebhookSender } from "./services/webhook/sender.js";
import { wakingOnWebhooks } from "./services/webhook/wake.js";

declare module "fastify" {
  interface FastifyInstance {
    /** The live streams this process holds (tests and benchmarks read its stream count). */
    readonly liveHub: LiveHub;
    /** The outbox's sender of this process (tests and the metrics read its tallies). */
    readonly mailSender: MailSender;
    /** The listener of replies by mail, when --smtp-inbound-port is given: `kairan serve` starts it after the HTTP one. */
    readonly mailInbound: InboundMail | undefined;
    /** The notification mailer of this process (tests and benchmarks run its passes). */
    readonly notificationMailer: NotificationMailer;
    /** The audit log's hourly retention (`kairan serve` starts it; tests run its passes). */
    readonly auditPruner: AuditPruner;
    /** The webhook queue's sender of this process (tests run it with their clock). */
    readonly webhookSender: WebhookSender;
    /** The WebSub hub of this process (tests run its passes with their clock). */
    readonly websubHub: WebSubHub;
  }
}

/** Everything the server needs from outside; tests pass the same things production does. */
export interface AppDependencies {
  readonly config: Config;
  readonly store: Store;
  readonly blobs: BlobStore;
  readonly clock: Clock;
  /** The WebSub hub's poll (default 5 s): tests set it long to show that pushes come from the wake. */
  readonly websubPollMs?: number;
}

/** Builds the whole server without listening: tests boot exactly what production boots. */
export function buildApp({ config, store, blobs, clock, websubPollMs }: AppDependencies): FastifyInstance {
  let listeningUrl: string | undefined;
  const baseUrl = () => config.publicUrl ?? listeningUrl ?? `http://${config.host}:${config.port}`;
  // The client's address as rate limits and sign-in throttling see it: behind a trusted proxy, the
  // client it forwards for (not the proxy), in the request log too.
  const clientAddress = clientAddressResolver(config.limits.trustProxy);
  const app = Fastify({
    // Logs go to standard error: standard output carries the lines operators and scripts read.
    logger: {
      level: config.logLevel,
      stream: process.stderr,
      // Fastify's own request fields, every credential in the URL redacted (http-kit/log-url.ts);
      // never the headers (Authorization, Cookie).
      serializers: {
        req: (request) => ({
          method: request.method,
          url: redactUrl(request.url),
          host: request.host,
          remoteAddress: clientAddress(request),
          remotePort: request.socket?.remotePort,
        }),
      },
    },
    genReqId: (request) => safeRequestId(request.headers["x-request-id"]),
    bodyLimit: LIMITS.xmlBodyMaxBytes,
    ...serverOptions(config.limits.timeouts),
    // Requests refused before routing (a broken path) answer like all others.
    // Fire and forget: the handler sends the reply itself; the reply it returns is thenable only to
    // report that sending, which Fastify's frameworkErrors (a void callback) does not await.
    frameworkErrors: (error, request, reply) => void errorHandler(baseUrl)(error, request, reply),
  });
  app.addHook("onListen", async () => {
    const address = app.server.address() as AddressInfo;
    const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
    listeningUrl = `http://${host}:${address.port}`;
  });

  // Bodies are read raw: Atom XML is parsed by our hardened parser, and OAuth signs form bodies byte for byte.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "string" }, (_request, body, done) => done(null, body));
  // multipart/form-data is left unread by its parser; the comment endpoint streams it part by part
  // and checks truncation itself (the plugin's own check would throw only on the next part).
  app.register(fastifyMultipart, { throwFileSizeLimit: false });
  // Callback hooks, here and on every request's path: an async hook costs a promise per request.
  app.addHook("onSend", (request, reply, payload, done) => {
    reply.header("x-request-id", request.id);
    done(null, payload);
  });
  app.setErrorHandler(errorHandler(baseUrl));
  // Hooks run in this order for every request, the 404s included: shutdown and URL length, then
  // the address's rate limit. The token's is counted once the caller is known (authenticateRequest).
  const admission = new Admission(config.limits.maxUploads);
  registerGuards(app, admission, config.limits.timeouts.shutdownGraceMs);
  // The WebSub hub renders feeds through this app as its subscribers (http/websub-render.ts).
  const renderFeed = registerWebSubRender(app, baseUrl);
  const limitToken = registerRateLimits(app, config.limits.rateLimit, clientAddress);
  // Before every route: the metrics' response hook must see them all.
  let feedCache: FeedCache | undefined;
  const sources = { config: config.metrics, feedCache: () => feedCache, clientAddress, pool: store.pool };
  // The hub is made with the context below; a scrape reads it then.
  const mail = {
    sender: () => mailSender,
    queued: () => store.read((tx) => tx.mailOutbox.counts()).then((counts) => counts.queued),
  };
  const metricFigures = registerMetrics(app, { ...sources, streams: () => liveHub, mail });
  registerHealth(app, store);
  const mailSender = startMailSender(app, { config, store, blobs, clock });
  // The webhook sender and the WebSub hub are made with the context below; until then there is nothing to wake.
  const webhookWake = { wake: (): void => undefined };
  const websubWake = { wake: (): void => undefined };
  const senderStore = wakingOnWebhooks(
    wakingOnMail(store, () => mailSender.wake()),
    () => webhookWake.wake(),
  );

  const context: Context = {
    config,
    // Transactions that queued mail wake the sender once committed (services/mail/wake.ts), and
    // those that queued webhook deliveries the webhook sender (services/webhook/wake.ts); every
    // commit wakes the WebSub hub, which looks only when it holds subscriptions (services/websub/wake.ts).
    store: wakingOnWebSub(senderStore, () => websubWake.wake()),
    blobs,
    clock,
    authenticate: createAuthenticator([bearerScheme(store), oauthScheme(store, clock)]),
    baseUrl,
    limitToken,
    admission,
    clientAddress,
    ...(metricFigures === undefined ? {} : { metricFigures }),
  };
  const web = registerWeb(app, context);
  // Outgoing webhooks (issue #34): sent after commit, in every process, like mail.
  const webhookSender = new WebhookSender(context, app.log, { releaseClaimsAtStart: config.store.kind === "sqlite" });
  webhookWake.wake = () => webhookSender.wake();
  app.decorate("webhookSender", webhookSender);
  app.addHook("onReady", async () => webhookSender.start());
  app.addHook("onClose", async () => webhookSender.stop());
  // Notification mail: due changes become outbox rows, beside the sender (services/mail-notify).
  // `kairan serve` starts its passes; tests run them one at a time with their clock (runNow).
  const notificationMailer = new NotificationMailer(context, app.log);
  app.decorate("notificationMailer", notificationMailer);
  app.addHook("onClose", async () => notificationMailer.stop());
  // The audit log keeps the site's auditRetentionDays: `kairan serve` starts the hourly pass.
  const auditPruner = new AuditPruner(context, app.log);
  app.decorate("auditPruner", auditPruner);
  app.addHook("onClose", async () => auditPruner.stop());
  // Browsers get a page, API clients the XML error document.
  app.setNotFoundHandler(async (request, reply) => {
    if (wantsPage(request)) return sendPageNotFound(web, request, reply);
    throw new NotFoundError("NOT_FOUND", `There is no endpoint at ${request.url.split("?")[0]}.`);
  });
  // Downloads stream stored bytes as they are, with their length: outside feed caching and compression.
  registerFileDownload(app, context);
  // The live stream too: an answer that never ends is neither cached nor compressed.
  const liveHub = new LiveHub(context, config.limits.streams);
  app.decorate("liveHub", liveHub);
  registerStream(app, context, liveHub, (request) => sessionActorOf(context, request));
  // Pictures are bytes with their own validators: outside the feed cache.
  registerIcon(app, context);
  // WebSub (issue #34): the hub's endpoint, and its sender, which renders feeds through this app
  // as each subscriber sees them; its own writes go to the store that does not wake it.
  registerWebSub(app, context, renderFeed);
  const websubHub = new WebSubHub({ ...context, store: senderStore, render: renderFeed }, app.log, {
    releaseClaimsAtStart: config.store.kind === "sqlite",
    ...(websubPollMs === undefined ? {} : { pollMs: websubPollMs }),
  });
  websubWake.wake = () => websubHub.wake();
  app.decorate("websubHub", websubHub);
  app.addHook("onReady", async () => websubHub.start());
  app.addHook("onClose", async () => websubHub.stop());
  // Incoming webhooks answer JSON, refusals included: outside the API's feed caching and XML errors.
  registerHooks(app, context);
  app.register(async (api) => {
    // Compression and validators first: both act on the routes registered after them.
    // Request bodies stay as sent: OAuth signs form bodies byte for byte, and the body limit holds.
    await api.register(compress, {
      threshold: COMPRESS_THRESHOLD_BYTES,
      encodings: ["br", "gzip"],
      globalDecompression: false,
    });
    feedCache = registerFeedCaching(api, context);
    registerBoard(api, context);
    registerGroups(api, context);
    registerFolderList(api, context, "/api/boardFolder/V2", "BOARD");
    registerGwTask(api, context);
    registerTask(api, context);
    registerFolderList(api, context, "/api/gwTaskFolder/V2", "TASK");
    registerGwCabinet(api, context);
    registerFolderList(api, context, "/api/gwCabinetFolder/V2", "CABINET");
    registerGwSchedule(api, context);
    registerSchedule(api, context);
    registerGwScheduleFolder(api, context);
    registerGwMemberList(api, context);
    registerOAuthCredentials(api, context);
    // The OAuth flow's pages are the web's (web/pages/oauth.ts) but are served here, beside the
    // protocol endpoints they belong to: a refusal (a 405, a fault) is the API's error document.
    registerOAuthPages(api, context);
    registerComment(api, context);
    registerGood(api, context);
    registerStar(api, context);
    registerNotification(api, context);
    registerGoodNotification(api, context);
    registerSearch(api, context);
    // Chat (issue #21).
    registerMpChat(api, context);
    registerMpChatPush(api, context);
    registerMpAddress(api, context);
    // Calendar feeds (issue #20): outside /api/, so outside the feed cache, but compressed.
    registerIcal(api, context);
  });
  // Replies by mail (issue #29): the SMTP listener, made here over the same context, closed with the server.
  const mailInbound =
    config.mail.inboundPort === undefined
      ? undefined
      : madeOnListen(async () =>
          (await import("./smtp/inbound.js")).createInboundMail(
            { ...context, log: app.log.child({ component: "smtp-inbound" }) },
            config.limits.timeouts.shutdownGraceMs,
          ),
        );
  app.decorate("mailInbound", mailInbound);
  app.addHook("onClose", async () => mailInbound?.close());
  return app;
}

/**
 * The outbox's sender (services/mail/sender.ts), in every server process: it starts with the
 * server and stops with it, finishing the messages it is sending. One process sends on SQLite, so
 * claims left in the file at start are a stopped process's and are taken back at once.
 */
function startMailSender(app: FastifyInstance, { config, store, clock }: AppDependencies): MailSender {
  // The relay and From saved in /admin/settings over the options, read with each claim.
  const route = savedRelayRoute({ store, clock }, config.mail, config.dataDir);
  const sender = new MailSender({ store, clock }, route, app.log, {
    releaseClaimsAtStart: config.store.kind === "sqlite",
  });
  app.decorate("mailSender", sender);
  app.addHook("onReady", async () => sender.start());
  app.addHook("onClose", async () => sender.stop());
  return sender;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Keeps a caller's X-Request-Id when it is a sane token, so logs join across services. */
function safeRequestId(header: string | string[] | undefined): string {
  return typeof header === "string" && REQUEST_ID.test(header) ? header : randomUUID();
}

/**
 * The listener of replies by mail, its module made when it starts listening: it loads smtp-server,
 * mailparser and email-reply-parser, which a server without `--smtp-inbound-port` never needs
 * (docs/architecture.md "Libraries of one feature load when first used").
 */
function madeOnListen(make: () => Promise<InboundMail>): InboundMail {
  let made: Promise<InboundMail> | undefined;
  return {
    listen: () => (made ??= make()).then((inbound) => inbound.listen()),
    close: async () => (made === undefined ? undefined : (await made).close()),
  };
}
