// Oxigraph, in memory, on a WatDiv query set: the same CSV as `gsparql bench`.
//   node bench.mjs DATA.nt.zst QUERY_FOLDER REPEAT
// Every result is materialised (all solutions and their terms read).
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { performance } from "node:perf_hooks";
import oxigraph from "oxigraph";

const [data, folder, repeatText] = process.argv.slice(2);
const repeat = Number(repeatText ?? 3);

async function load(store, file) {
  const zstd = spawn("zstd", ["-dc", "--long=31", file], { stdio: ["ignore", "pipe", "inherit"] });
  let pending = "";
  const flush = (text) => store.load(text, { format: "application/n-triples", no_transaction: true });
  for await (const chunk of zstd.stdout) {
    pending += chunk.toString("utf8");
    if (pending.length > 32 << 20) {
      const cut = pending.lastIndexOf("\n") + 1;
      flush(pending.slice(0, cut));
      pending = pending.slice(cut);
    }
  }
  if (pending.length > 0) flush(pending);
}

function runOnce(store, text) {
  const start = performance.now();
  const result = store.query(text);
  let rows = 0;
  if (typeof result === "boolean") {
    rows = 1;
  } else {
    for (const solution of result) {
      if (solution.termType === "Quad") {
        void solution.subject.value, solution.predicate.value, solution.object.value;
      } else {
        for (const [, term] of solution) void term.value;
      }
      rows += 1;
    }
  }
  return [rows, performance.now() - start];
}

const store = new oxigraph.Store();
const loadStart = performance.now();
await load(store, data);
console.error(`# oxigraph ${oxigraph.version ?? "0.5"}: loaded ${store.size} triples in ${((performance.now() - loadStart) / 1000).toFixed(1)} s`);

console.log("query,template,rows,min_ms,median_ms,max_ms");
for (const file of readdirSync(folder).filter((f) => f.endsWith(".rq")).sort()) {
  const text = readFileSync(join(folder, file), "utf8");
  runOnce(store, text);  // warm-up
  const times = [];
  let rows = 0;
  for (let i = 0; i < repeat; i++) {
    const [n, ms] = runOnce(store, text);
    rows = n;
    times.push(ms);
  }
  times.sort((a, b) => a - b);
  const name = basename(file, ".rq");
  const median = times[Math.floor(times.length / 2)];
  console.log(`${name},${name.split("_")[0]},${rows},${times[0].toFixed(3)},${median.toFixed(3)},${times[times.length - 1].toFixed(3)}`);
}
