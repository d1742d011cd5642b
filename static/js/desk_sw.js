// The desk's service worker (served by /sw.js, which loads Workbox first). It does two things for
// a floor judge's tablet on a venue's Wi-Fi (README: "Working offline"):
// 1. Pages: every page of the app opened online is kept (network first, the kept copy when the
//    server does not answer), and the log form of each player on the judge's list is fetched
//    ahead, so the table's pages open offline from what the tablet last saw.
// 2. Penalties: a log form sent while the server does not answer is kept in IndexedDB (Workbox's
//    background-sync Queue "desk-pending", which survives a closed tab and a restarted browser)
//    and sent again, with its one-time key, to /t/<slug>/judge/issue/queued/ as soon as the
//    server answers; the server records one intention once, whatever earlier tries did. A
//    refusal (the player was disqualified meanwhile, the round changed) moves the entry to
//    "desk-refused", where it stays until the judge sends it again or discards it.
// Pages talk to it with postMessage (static/js/offline.js) and hear "changed" on the
// BroadcastChannel "desk-offline".
/* global workbox */
(() => {
  const { registerRoute } = workbox.routing;
  const { NetworkFirst, StaleWhileRevalidate } = workbox.strategies;
  const { ExpirationPlugin } = workbox.expiration;
  const { Queue } = workbox.backgroundSync;

  const PAGES = "desk-pages";
  const ASSETS = "desk-assets";
  const SENT = "desk-sent";
  const ISSUE = /^\/t\/[^/]+\/judge\/issue\/$/;
  const LOG_FORM = /^\/t\/[^/]+\/judge\/log\/$/;
  // A penalty kept on the tablet is never dropped by age: the judge deals with each one.
  const FOREVER = 60 * 24 * 365 * 10;
  const channel = new BroadcastChannel("desk-offline");
  // The newest CSRF token a page of this tablet holds (the session may have changed while an
  // entry waited): the pages hand it over with each message.
  let csrfToken = "";
  // The judge of the page that spoke last: a sync event (no page) sends their entries.
  let lastUser = "";
  let replaying = null;

  const pending = new Queue("desk-pending", {
    maxRetentionTime: FOREVER,
    onSync: () => replay(),
  });
  // Never sent by itself: Workbox's own replay would take any answer, a refusal too, as done
  // and drop the entry. Only the judge sends a refused entry again.
  const refused = new Queue("desk-refused", {
    maxRetentionTime: FOREVER,
    onSync: async () => {},
  });

  self.addEventListener("install", (event) => {
    event.waitUntil(
      caches
        .open(ASSETS)
        .then((cache) => cache.addAll(self.DESK_ASSETS || []))
        .then(() => self.skipWaiting()),
    );
  });
  self.addEventListener("activate", (event) => {
    event.waitUntil(self.clients.claim());
  });

  // A page is kept only as the signed-in judge saw it: not a redirect to the sign-in page.
  const onlyPages = {
    cacheWillUpdate: async ({ response }) =>
      response && response.status === 200 && !response.redirected ? response : null,
  };
  // The judge's page after a penalty was kept (?kept=<key>) is the judge's page.
  const withoutKept = {
    cacheKeyWillBeUsed: async ({ request }) => {
      const url = new URL(request.url);
      if (!url.searchParams.has("kept")) {
        return request;
      }
      url.searchParams.delete("kept");
      return url.href;
    },
  };
  const pages = new NetworkFirst({
    cacheName: PAGES,
    networkTimeoutSeconds: 4,
    // Pages only (no HTMX fragment is kept), so the page's Vary (HX-Request, Cookie) may be
    // ignored: a page fetched ahead by the worker matches the tablet's navigation to it.
    matchOptions: { ignoreVary: true },
    plugins: [withoutKept, onlyPages, new ExpirationPlugin({ maxEntries: 400 })],
  });
  registerRoute(
    ({ request, url }) =>
      url.origin === self.location.origin &&
      request.method === "GET" &&
      (url.pathname === "/" || url.pathname.startsWith("/t/")) &&
      !url.pathname.endsWith("/events/") &&
      request.mode === "navigate",
    pages,
  );
  registerRoute(
    ({ url }) => url.origin === self.location.origin && url.pathname.startsWith("/static/"),
    new StaleWhileRevalidate({ cacheName: ASSETS }),
  );

  // The log form sent: to the server when it answers, else kept on the tablet.
  registerRoute(
    ({ request, url }) => request.method === "POST" && ISSUE.test(url.pathname),
    async ({ request }) => {
      const copy = request.clone();
      try {
        return await fetch(request);
      } catch (error) {
        const fields = new URLSearchParams(await copy.clone().text());
        await keep(copy, fields);
        const home = new URL(request.url).pathname.replace(/issue\/$/, "");
        return Response.redirect(`${home}?kept=${encodeURIComponent(fields.get("client_key"))}`, 303);
      }
    },
    "POST",
  );

  // Any other form sent while the server does not answer: back to the page it came from, which
  // says that it was not sent (static/js/offline.js); only penalties are kept.
  registerRoute(
    ({ request, url }) =>
      request.method === "POST" &&
      request.mode === "navigate" &&
      url.origin === self.location.origin &&
      !ISSUE.test(url.pathname),
    async ({ request }) => {
      try {
        return await fetch(request);
      } catch (error) {
        if (!request.referrer) {
          return Response.error();
        }
        const back = new URL(request.referrer);
        back.hash = "not-sent";
        return Response.redirect(back.href, 303);
      }
    },
    "POST",
  );

  async function keep(request, fields) {
    const key = fields.get("client_key");
    const all = await pending.getAll();
    if (all.some((entry) => entry.metadata && entry.metadata.key === key)) {
      return; // The same form sent twice while offline: one intention.
    }
    const [slug, user] = (fields.get("entry_of") || ":").split(":");
    await pending.pushRequest({
      request,
      metadata: {
        key,
        slug,
        user,
        player: fields.get("player"),
        label: fields.get("entry_label") || "",
        infraction: fields.get("infraction") || "",
        enteredAt: fields.get("entered_at") || new Date().toISOString(),
      },
    });
    changed();
  }

  function changed() {
    channel.postMessage({ type: "changed" });
  }

  function queuedUrl(url) {
    const target = new URL(url);
    target.pathname = target.pathname.replace(/issue\/$/, "issue/queued/");
    target.search = "";
    return target.href;
  }

  // One try at sending a kept penalty. Answers "recorded", "refused" (the judge must see it) or
  // "wait" (the server does not answer, or the judge must sign in first): then it stays.
  async function send(entry, { confirm = false } = {}) {
    const body = new URLSearchParams(await entry.request.clone().text());
    body.set("sent_at", new Date().toISOString());
    if (csrfToken) {
      body.set("csrfmiddlewaretoken", csrfToken);
    }
    if (confirm) {
      body.set("confirm_second", "on");
    }
    let response;
    try {
      response = await fetch(queuedUrl(entry.request.url), {
        method: "POST",
        body,
        credentials: "same-origin",
        redirect: "manual",
        headers: { "X-CSRFToken": body.get("csrfmiddlewaretoken") || "" },
      });
    } catch (error) {
      return { kind: "wait", why: "offline" };
    }
    if (response.type === "opaqueredirect") {
      return { kind: "wait", why: "signed-out" };
    }
    if (response.headers.get("X-Desk-Refusal") === "csrf") {
      return { kind: "wait", why: "signed-out" };
    }
    if (response.status >= 500) {
      return { kind: "wait", why: "server" };
    }
    let answer = null;
    try {
      answer = await response.json();
    } catch (error) {
      answer = null;
    }
    if (answer && answer.status === "recorded") {
      return { kind: "recorded", answer };
    }
    if (answer && answer.status === "refused") {
      return { kind: "refused", code: answer.code, message: answer.message };
    }
    return { kind: "refused", code: `http_${response.status}`, message: "" };
  }

  async function remember(entry, answer) {
    const sent = await caches.open(SENT);
    const note = { ...entry.metadata, record: answer.record, url: answer.url, sentAt: Date.now() };
    await sent.put(`/__desk_sent/${entry.metadata.key}`, new Response(JSON.stringify(note)));
    // The card of the record just made is kept too, to show it offline.
    try {
      const card = await fetch(answer.url, { credentials: "same-origin" });
      if (card.ok && !card.redirected) {
        await (await caches.open(PAGES)).put(answer.url, card);
      }
    } catch (error) {
      // Only a copy for later; the record is made.
    }
  }

  // Send what waits of this judge, oldest first, one at a time; stop at the first that cannot go
  // now. An entry leaves the queue only after the server answered for it: a worker stopped
  // mid-send sends it again later with the same key, and the server answers with the record it
  // made. Only the judge signed in now sends their own entries (the session sends as them).
  async function replay(user = lastUser) {
    if (!user) {
      return "idle";
    }
    if (replaying) {
      return replaying;
    }
    replaying = (async () => {
      let status = "idle";
      for (;;) {
        const entry = (await pending.getAll()).find(
          (each) => each.metadata && each.metadata.user === String(user),
        );
        if (!entry) {
          break;
        }
        const result = await send(entry);
        if (result.kind === "wait") {
          status = result.why;
          break;
        }
        await takeOut(pending, entry.metadata.key);
        if (result.kind === "recorded") {
          await remember(entry, result.answer);
        } else {
          await refused.pushRequest({
            request: entry.request,
            timestamp: entry.timestamp,
            metadata: { ...entry.metadata, code: result.code, message: result.message },
          });
        }
        changed();
      }
      return status;
    })();
    try {
      return await replaying;
    } finally {
      replaying = null;
    }
  }

  // Take one entry out of a queue by its key, keeping the others in their order.
  async function takeOut(queue, key) {
    const all = [];
    let entry;
    while ((entry = await queue.shiftRequest())) {
      all.push(entry);
    }
    let found = null;
    for (const each of all) {
      if (!found && each.metadata && each.metadata.key === key) {
        found = each;
      } else {
        await queue.pushRequest(each);
      }
    }
    return found;
  }

  async function state(user) {
    const mine = (entry) => !user || !entry.metadata || entry.metadata.user === String(user);
    const sentCache = await caches.open(SENT);
    const sent = [];
    for (const request of await sentCache.keys()) {
      const note = await (await sentCache.match(request)).json();
      if (!user || note.user === String(user)) {
        sent.push(note);
      }
    }
    return {
      pending: (await pending.getAll()).filter(mine).map((entry) => entry.metadata),
      refused: (await refused.getAll()).filter(mine).map((entry) => entry.metadata),
      sent: sent.sort((a, b) => a.sentAt - b.sentAt),
    };
  }

  async function warm(urls) {
    const cache = await caches.open(PAGES);
    for (const url of urls) {
      if (!(await cache.match(url, { ignoreVary: true }))) {
        try {
          const response = await fetch(url, { credentials: "same-origin" });
          if (response.ok && !response.redirected) {
            await cache.put(url, response);
          }
        } catch (error) {
          // One page not fetched (a dropped connection, a slow answer) leaves the others to try;
          // the next visit to the judge's page tries it again.
          continue;
        }
      }
    }
  }

  async function handle(message) {
    if (message.csrf) {
      csrfToken = message.csrf;
    }
    if (message.user) {
      lastUser = String(message.user);
    }
    switch (message.type) {
      case "replay":
        return { status: await replay(message.user) };
      case "retry": {
        const entry = await takeOut(refused, message.key);
        if (entry) {
          const result = await send(entry, { confirm: Boolean(message.confirm) });
          if (result.kind === "recorded") {
            await remember(entry, result.answer);
          } else if (result.kind === "refused") {
            entry.metadata = { ...entry.metadata, code: result.code, message: result.message };
            await refused.pushRequest(entry);
          } else {
            const metadata = { ...entry.metadata };
            delete metadata.code;
            delete metadata.message;
            await pending.pushRequest({ ...entry, metadata });
          }
          changed();
        }
        return {};
      }
      case "discard":
        await takeOut(refused, message.key);
        changed();
        return {};
      case "dismiss":
        await (await caches.open(SENT)).delete(`/__desk_sent/${message.key}`);
        changed();
        return {};
      case "warm":
        await warm(message.urls || []);
        return {};
      case "signed-out":
        await caches.delete(PAGES);
        return {};
      default:
        return {};
    }
  }

  self.addEventListener("message", (event) => {
    const message = event.data || {};
    const port = event.ports && event.ports[0];
    const work = handle(message)
      .then(async (answer) => ({ ...answer, ...(await state(message.user)) }))
      .then((answer) => port && port.postMessage(answer))
      .catch((error) => port && port.postMessage({ error: String(error) }));
    event.waitUntil(work);
  });
})();
