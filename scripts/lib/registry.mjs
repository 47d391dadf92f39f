// A real npm registry on 127.0.0.1 for `pnpm test:release`: Verdaccio (pinned in the root
// package.json), run in this process so it cannot outlive the test. Everything lives in one
// temporary folder: storage, the htpasswd file, the log. @snappykit/* exist only here (never
// proxied, so nothing published elsewhere can stand in for this run's packages); every other
// package is proxied from the registry this machine's npm uses, and stored on first fetch.
// What it holds is asked over its HTTP API, the way package managers ask it.
import { once } from "node:events";
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const require = createRequire(import.meta.url);

/**
 * Starts Verdaccio with its storage in `dir`, proxying to `uplink`, and registers one user
 * (publishing needs a token, as it does on npm). Returns its url, the token, its log's path,
 * `stop`, and the queries of {@link queries} (downloaded tarballs go into `dir`/tarballs).
 */
export async function startRegistry(dir, { uplink }) {
  const { runServer } = require("verdaccio");
  mkdirSync(join(dir, "storage"), { recursive: true });
  const log = join(dir, "verdaccio.log");
  const server = await runServer({
    self_path: dir,
    configPath: join(dir, "config.yaml"),
    storage: join(dir, "storage"),
    auth: { htpasswd: { file: join(dir, "htpasswd"), max_users: 1 } },
    uplinks: { upstream: { url: uplink, timeout: "60s", max_fails: 5 } },
    packages: {
      "@snappykit/*": { access: "$all", publish: "$authenticated" },
      "**": { access: "$all", publish: "$authenticated", proxy: "upstream" },
    },
    log: { type: "file", path: log, level: "warn" },
    web: { enable: false },
    // A publish sends the tarball base64-encoded: @snappykit/fixtures' 8 MiB would pass
    // Verdaccio's 10 MB default.
    max_body_size: "100mb",
  });
  // Keep-alive sockets from the package managers must not hold close() open.
  server.keepAliveTimeout = 1000;
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const url = `http://127.0.0.1:${server.address().port}/`;
  const stop = async () => {
    server.closeAllConnections?.();
    await new Promise((resolve) => server.close(() => resolve()));
  };
  try {
    const user = "release-test";
    const response = await fetch(`${url}-/user/org.couchdb.user:${user}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: user, password: "release-test-password", type: "user" }),
    });
    const body = await response.json();
    if (!response.ok || !body.token) {
      throw new Error(`registering a user: HTTP ${response.status} ${JSON.stringify(body)}`);
    }
    return { url, token: body.token, log, stop, ...queries(url, join(dir, "tarballs")) };
  } catch (error) {
    await stop();
    throw error;
  }
}

function queries(url, tarballs) {
  /** Every version's manifest, and the dist-tags; null if the registry has no such package. */
  const packument = async (name) => {
    const response = await fetch(`${url}${name.replace("/", "%2f")}`);
    if (response.status === 404) return null;
    if (!response.ok) throw new Error(`GET ${name}: HTTP ${response.status}`);
    return response.json();
  };
  /** name → its dist-tags (none for a package the registry lacks). */
  const distTags = async (names) =>
    Object.fromEntries(
      await Promise.all(names.map(async (n) => [n, (await packument(n))?.["dist-tags"] ?? {}])),
    );
  /** name → the version its `latest` dist-tag names. */
  const latestOf = async (names) =>
    Object.fromEntries(Object.entries(await distTags(names)).map(([n, tags]) => [n, tags.latest]));
  /** Downloads `name@version`'s tarball from the registry; returns its path. */
  const tarballOf = async (name, version) => {
    const { dist } = (await packument(name)).versions[version];
    const file = join(tarballs, `${name.replace("/", "-")}-${version}.tgz`);
    mkdirSync(tarballs, { recursive: true });
    writeFileSync(file, Buffer.from(await (await fetch(dist.tarball)).arrayBuffer()));
    return file;
  };
  return { packument, distTags, latestOf, tarballOf };
}
