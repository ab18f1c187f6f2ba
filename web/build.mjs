// Builds the Activity's client into bot/activity/static/ (the bot serves index.html as / and assets/<file> as
// /assets/<file>), or into the folder given as the first argument (the reproducibility test): app.js and app.css
// bundled by esbuild into assets/, index.html copied. The output depends only
// on web/src and the locked packages, so a rebuild is byte-for-byte the committed bundle.
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import * as esbuild from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const out = resolve(process.argv[2] ?? join(here, "..", "bot", "activity", "static"));
mkdirSync(join(out, "assets"), { recursive: true });

await esbuild.build({
  absWorkingDir: here,
  entryPoints: { app: "src/main.ts" },
  bundle: true,
  format: "esm",
  target: ["es2020", "chrome100", "safari15"],
  minify: true,
  legalComments: "eof",
  charset: "utf8",
  outdir: join(out, "assets"),
  logLevel: "warning",
});
await esbuild.build({
  absWorkingDir: here,
  entryPoints: { app: "src/app.css" },
  bundle: true,
  minify: true,
  charset: "utf8",
  outdir: join(out, "assets"),
  logLevel: "warning",
});
copyFileSync(join(here, "src", "index.html"), join(out, "index.html"));
